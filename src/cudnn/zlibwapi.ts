// cuDNN 8.3+ on Windows loads zlibwapi.dll, which it does not ship: find a 64-bit one, or say how to get it.
import { cudnnText } from '../i18n/cudnn.js';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { WINDOWS_ZLIB_DLL } from '../platform.js';

export type PeMachine = 'x64' | 'x86' | 'arm64' | 'other' | 'not-pe';

const MACHINES: Record<number, PeMachine> = { 0x8664: 'x64', 0x14c: 'x86', 0xaa64: 'arm64' };

/** The machine type in a PE file's COFF header: "MZ", e_lfanew at 0x3C, "PE\0\0", then the machine. */
export async function peMachine(file: string): Promise<PeMachine> {
  const fh = await open(file, 'r');
  try {
    const dos = Buffer.alloc(64);
    if ((await fh.read(dos, 0, 64, 0)).bytesRead < 64 || dos.toString('latin1', 0, 2) !== 'MZ') return 'not-pe';
    const peAt = dos.readUInt32LE(0x3c);
    const pe = Buffer.alloc(6);
    if ((await fh.read(pe, 0, 6, peAt)).bytesRead < 6 || pe.toString('latin1', 0, 4) !== 'PE\0\0') return 'not-pe';
    return MACHINES[pe.readUInt16LE(4)] ?? 'other';
  } finally {
    await fh.close();
  }
}

export interface ZlibwapiCheck {
  ok: boolean;
  /** The first 64-bit zlibwapi.dll in the given order. */
  found?: string;
  /** Copies that are there but will not load into 64-bit TensorFlow. */
  unusable: { file: string; machine: PeMachine }[];
  fix?: string;
}

/** Read at call time: the table answers in the run's language. */
export function zlibwapiFix(): string {
  return cudnnText.zlibwapiFix;
}

/** Looks in each folder (the toolkit's bin first, then PATH) for a 64-bit zlibwapi.dll. */
export async function checkZlibwapi(dirs: readonly string[]): Promise<ZlibwapiCheck> {
  const unusable: ZlibwapiCheck['unusable'] = [];
  for (const dir of dirs) {
    const file = path.join(dir, WINDOWS_ZLIB_DLL);
    const machine = await peMachine(file).catch(() => undefined);
    if (machine === undefined) continue;
    if (machine === 'x64') return { ok: true, found: file, unusable };
    unusable.push({ file, machine });
  }
  const why = unusable.length > 0 ? cudnnText.zlibwapiOnly32(unusable.map((u) => `${u.file}: ${u.machine}`).join(', ')) : '';
  return { ok: false, unusable, fix: why + zlibwapiFix() };
}
