// #37: a bundle or file others can write. B3: a bundle another user can change is named in the plan,
// not accepted silently (its files are used only through cudawiz's own checked copies). B4:
// `repair --from` seeded the private cache with hard links first, so a bundle file another user owns
// became the cache's own inode; now every file is copied in while hashed, never linked. Run as root,
// with `nobody` as the other user where root can switch (test/helpers/other-user.ts).
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, chown, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenBundle } from '../../src/bundle/check.js';
import { seedCache } from '../../src/bundle/seed.js';
import { bundleText } from '../../src/i18n/bundle.js';
import { othersCanChange } from '../../src/trust/verified-file.js';
import { NOBODY } from '../fixtures/cuda-installer/unprivileged.js';
import { asOtherUser, canSwitchToNobody, otherUserLabel } from '../helpers/other-user.js';
import { tempDir } from '../helpers/tmp.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A bundle folder the other user owns (0755), holding one archive of theirs. */
async function othersBundle(): Promise<{ bundle: OpenBundle; file: string; bytes: Buffer }> {
  const dir = await tempDir('cw-others-bundle-');
  await chmod(dir, 0o755);
  const name = 'libcublas-linux-x86_64-11.11.3.6-archive.tar.xz';
  const file = path.join(dir, name);
  const bytes = randomBytes(64 * 1024);
  await writeFile(file, bytes, { mode: 0o644 });
  if (canSwitchToNobody) {
    await chown(dir, NOBODY, NOBODY);
    await chown(file, NOBODY, NOBODY);
  } else await chmod(dir, 0o777);
  const bundle: OpenBundle = { dir, manifest: {} as OpenBundle['manifest'], files: new Map([[name, { path: file, sha256: sha256(bytes), md5: '', size: bytes.length, id: 'libcublas', kind: 'redist' }]]) };
  return { bundle, file, bytes };
}

describe(`a bundle others can write (#37 B3, B4) — ${otherUserLabel}`, () => {
  it('B3: a bundle folder another user owns or can write is named, with who, in words the plan shows', async () => {
    const { bundle, file } = await othersBundle();
    const who = await othersCanChange(file);
    // The file itself when the other user owns it; else the folder others can write.
    expect(who).toBe(canSwitchToNobody ? file : bundle.dir);
    expect(bundleText.sharedBundle(bundle.dir, who!)).toContain(`The bundle ${bundle.dir} can be changed by other users (${who})`);
    // A bundle of the user's own, in a folder only they can write, is not named.
    const own = await tempDir('cw-own-bundle-');
    await chmod(own, 0o755);
    await writeFile(path.join(own, 'a.tar.xz'), 'x', { mode: 0o644 });
    expect(await othersCanChange(path.join(own, 'a.tar.xz'))).toBeUndefined();
  });

  it('B4: repair --from seeds the cache with copies, never hard links: the other user changing the bundle file later does not change the cache', async () => {
    const { bundle, file, bytes } = await othersBundle();
    const cache = await tempDir('cw-private-cache-');
    const seeded = await seedCache(bundle, cache);
    expect(seeded).toEqual([path.basename(file)]);
    const cached = path.join(cache, path.basename(file));
    const [src, dst] = await Promise.all([stat(file), stat(cached)]);
    expect(dst.ino).not.toBe(src.ino);
    expect(dst.nlink).toBe(1);
    expect(dst.uid).toBe(process.getuid?.());
    // The other user rewrites their file in place (as they always could): the private copy stays the checked bytes.
    const [cmd, ...args] = asOtherUser(['sh', '-c', `printf evil > "${file}"`]);
    execFileSync(cmd!, args);
    expect(await readFile(file, 'utf8')).toBe('evil');
    expect(sha256(await readFile(cached))).toBe(sha256(bytes));
  });
});
