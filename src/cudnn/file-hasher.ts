// sha256 of freshly written files on a worker thread, so hashing one file overlaps decompressing
// and writing the next (hashing on the main thread cost a tar import ~30%). Where a worker cannot
// start, the same hash is taken on this thread.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Worker } from 'node:worker_threads';

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

// Plain CommonJS for `eval: true`: no file to find next to a bundle or inside a standalone binary.
const WORKER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { createReadStream } = require('node:fs');
parentPort.on('message', ({ id, file }) => {
  const hash = createHash('sha256');
  createReadStream(file, { highWaterMark: 1024 * 1024 })
    .on('data', (c) => hash.update(c))
    .on('error', (e) => parentPort.postMessage({ id, error: e.message }))
    .on('end', () => parentPort.postMessage({ id, sha256: hash.digest('hex') }));
});
`;

export interface FileHasher {
  hash(file: string): Promise<string>;
  /** Stops the worker; pending hashes are answered on this thread. */
  close(): Promise<void>;
}

export function startFileHasher(): FileHasher {
  const pending = new Map<number, { file: string; resolve: (sha: string) => void; reject: (e: Error) => void }>();
  let next = 0;
  let worker: Worker | undefined;
  const fallBack = () => {
    worker = undefined;
    for (const [id, p] of pending) {
      pending.delete(id);
      sha256File(p.file).then(p.resolve, p.reject);
    }
  };
  try {
    worker = new Worker(WORKER, { eval: true });
    worker.unref();
    worker.on('message', (m: { id: number; sha256?: string; error?: string }) => {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.sha256) p?.resolve(m.sha256);
      else p?.reject(new Error(`cannot hash ${p.file}: ${m.error}`));
    });
    worker.on('error', fallBack);
    worker.on('exit', fallBack);
  } catch {
    worker = undefined;
  }
  return {
    hash(file) {
      if (!worker) return sha256File(file);
      return new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { file, resolve, reject });
        worker!.postMessage({ id, file });
      });
    },
    async close() {
      const w = worker;
      fallBack();
      await w?.terminate();
    },
  };
}
