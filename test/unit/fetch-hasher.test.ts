import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OrderedHasher } from '../../src/fetch/ordered-hasher.js';
import { tempDir } from '../helpers/tmp.js';

describe('hashing a file whose pieces land out of order', () => {
  it('a catch-up asked for while another runs still reaches the new edge (the end of a segmented download)', async () => {
    const file = path.join(await tempDir(), 'x.part');
    const content = randomBytes(3 * 1024 * 1024 + 17);
    await writeFile(file, content);
    let edge = 1024 * 1024;
    const h = new OrderedHasher(file, () => edge);
    const first = h.catchUp();
    edge = content.length;
    await h.catchUp();
    expect(h.hashed).toBe(content.length);
    await first;
    expect(h.digests()).toEqual({ sha256: createHash('sha256').update(content).digest('hex'), md5: createHash('md5').update(content).digest('hex') });
  });

  it('takes bytes from memory only where they continue the hashed prefix', async () => {
    const file = path.join(await tempDir(), 'y.part');
    const content = randomBytes(1000);
    await writeFile(file, content);
    let edge = 0;
    const h = new OrderedHasher(file, () => edge);
    h.offer(500, content.subarray(500)); // a later piece: must wait for the disk
    h.offer(0, content.subarray(0, 500));
    expect(h.hashed).toBe(500);
    edge = 1000;
    await h.catchUp();
    expect(h.digests().sha256).toBe(createHash('sha256').update(content).digest('hex'));
  });
});
