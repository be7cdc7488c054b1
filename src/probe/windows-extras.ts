// Windows-only files TensorFlow's DLLs depend on: zlibwapi.dll (cuDNN 8.3+), and whether it is 64-bit.
// The MSVC runtime DLLs need no probe of their own: the search path facts list them.
import { WINDOWS_ZLIB_DLL, pathFor } from '../platform.js';
import type { MachineFs } from './machine-fs.js';
import { resolveLibrary } from './resolution.js';
import type { SearchPath, WindowsExtras } from './types.js';

/** A PE file's machine field: 0x8664 → 64-bit, 0x14c → 32-bit. */
export function peBits(header: Buffer): 32 | 64 | undefined {
  if (header.length < 0x40 || header.toString('latin1', 0, 2) !== 'MZ') return undefined;
  const pe = header.readUInt32LE(0x3c);
  if (pe + 6 > header.length || header.toString('latin1', pe, pe + 4) !== 'PE\0\0') return undefined;
  const machine = header.readUInt16LE(pe + 4);
  return machine === 0x8664 ? 64 : machine === 0x14c ? 32 : undefined;
}

export function probeWindowsExtras(mfs: MachineFs, search: SearchPath): WindowsExtras {
  const zlib = resolveLibrary(search, WINDOWS_ZLIB_DLL).winner;
  if (!zlib) return {};
  const file = pathFor('windows').join(zlib.dir, WINDOWS_ZLIB_DLL);
  const header = mfs.readBytes(file, 4096);
  return { zlibwapi: { path: file, bits: header ? peBits(header) : undefined } };
}
