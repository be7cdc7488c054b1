// sha256 and md5 of the whole file, in order, while pieces arrive out of order: bytes at the hashed
// edge are hashed from memory as they stream; anything that landed on disk first is read back later.
import { createHash, type Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { fetchText } from '../i18n/fetch.js';

export interface Digests {
  sha256: string;
  md5: string;
}

export class OrderedHasher {
  private sha256: Hash = createHash('sha256');
  private md5: Hash = createHash('md5');
  private running: Promise<void> | undefined;
  hashed = 0;

  /** `writtenEdge()`: how far from byte 0 the file on disk is complete without gaps. */
  constructor(
    private readonly file: string,
    private readonly writtenEdge: () => number,
  ) {}

  /** A chunk about to be written at `pos`; taken only if it continues the hashed prefix. */
  offer(pos: number, chunk: Buffer): void {
    if (this.running || pos !== this.hashed) return;
    this.sha256.update(chunk);
    this.md5.update(chunk);
    this.hashed += chunk.length;
  }

  /** Reads what is complete on disk beyond the hashed prefix; a second caller waits for the first. */
  async catchUp(): Promise<void> {
    while (this.running) await this.running;
    if (this.writtenEdge() <= this.hashed) return;
    this.running = (async () => {
      let edge = this.writtenEdge();
      while (edge > this.hashed) {
        await this.readRange(this.hashed, edge);
        edge = this.writtenEdge();
      }
    })().finally(() => {
      this.running = undefined;
    });
    await this.running;
  }

  digests(): Digests {
    return { sha256: this.sha256.digest('hex'), md5: this.md5.digest('hex') };
  }

  private async readRange(from: number, to: number): Promise<void> {
    const fh = await open(this.file, 'r');
    try {
      const buf = Buffer.allocUnsafe(1 << 20);
      let pos = from;
      while (pos < to) {
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, to - pos), pos);
        if (bytesRead === 0) throw new Error(fetchText.shorterThanExpected(this.file, pos, to));
        const view = buf.subarray(0, bytesRead);
        this.sha256.update(view);
        this.md5.update(view);
        pos += bytesRead;
        this.hashed = pos;
      }
    } finally {
      await fh.close();
    }
  }
}

/** Both digests of a whole file on disk. */
export async function hashFile(file: string): Promise<Digests & { bytes: number }> {
  let size = 0;
  const h = new OrderedHasher(file, () => size);
  const fh = await open(file, 'r');
  try {
    size = (await fh.stat()).size;
  } finally {
    await fh.close();
  }
  await h.catchUp();
  return { ...h.digests(), bytes: size };
}
