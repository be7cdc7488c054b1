// Builds real cuDNN-shaped archives for each layout era (domain.md §5e), with the real version
// header, plus fixture toolkit folders and a whole-tree digest to prove "nothing was changed".
// Archives are written by Python's zipfile/tarfile so tests can also make hostile ones (../, links out).
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';

export interface FixtureEntry {
  name: string;
  /** `hardlink`: to `target`, a member name; `fifo`: a device-like member with no data. */
  type?: 'file' | 'symlink' | 'dir' | 'hardlink' | 'fifo';
  data?: Buffer | string;
  target?: string;
}

export type FixtureFormat = 'zip' | 'tar.gz' | 'tar.xz';

let python: Promise<string> | undefined;
/** python3's own interpreter (sys.executable), asked once: a version manager's shim costs a shell and several programs per spawn, and the fixtures spawn it hundreds of times a run. */
export function pythonItself(): Promise<string> {
  python ??= execa('python3', ['-c', 'import sys; print(sys.executable)']).then((r) => r.stdout.trim());
  return python;
}

const WRITER = String.raw`
import base64, io, json, sys, tarfile, zipfile
def write(spec):
  out, fmt, entries = spec['file'], spec['format'], spec['entries']
  if fmt == 'zip':
      with zipfile.ZipFile(out, 'w', zipfile.ZIP_STORED if spec.get('store') else zipfile.ZIP_DEFLATED) as z:
          for e in entries:
              if e['type'] == 'dir':
                  z.writestr(zipfile.ZipInfo(e['name'].rstrip('/') + '/'), b'')
              elif e['type'] == 'symlink':
                  i = zipfile.ZipInfo(e['name']); i.create_system = 3; i.external_attr = (0o120777 << 16)
                  z.writestr(i, e['target'])
              else:
                  i = zipfile.ZipInfo(e['name']); i.external_attr = (0o100644 << 16)
                  z.writestr(i, base64.b64decode(e['data']))
  else:
      extra = {'preset': spec['xzPreset']} if fmt != 'tar.gz' and spec.get('xzPreset') is not None else {}
      with tarfile.open(out, 'w:gz' if fmt == 'tar.gz' else 'w:xz', format=tarfile.GNU_FORMAT, **extra) as t:
          for e in entries:
              i = tarfile.TarInfo(e['name']); i.mtime = 1572480000
              if e['type'] == 'dir':
                  i.type = tarfile.DIRTYPE; i.mode = 0o755; t.addfile(i)
              elif e['type'] == 'symlink':
                  i.type = tarfile.SYMTYPE; i.linkname = e['target']; i.mode = 0o777; t.addfile(i)
              elif e['type'] == 'hardlink':
                  i.type = tarfile.LNKTYPE; i.linkname = e['target']; i.mode = 0o644; t.addfile(i)
              elif e['type'] == 'fifo':
                  i.type = tarfile.FIFOTYPE; i.mode = 0o644; t.addfile(i)
              else:
                  b = base64.b64decode(e['data']); i.size = len(b); i.mode = 0o644; t.addfile(i, io.BytesIO(b))
for spec in json.load(sys.stdin):
    write(spec)
`;

export interface ArchiveOptions {
  store?: boolean;
  /** tar.xz: xz's preset (0–9; Python's default 6 is slow to write big fixtures; reading costs about the same). */
  xzPreset?: number;
}

export interface ArchiveSpec extends ArchiveOptions {
  file: string;
  format: FixtureFormat;
  entries: FixtureEntry[];
}

/** Writes each archive, exactly these entries in this order, with one Python for them all (a Python start costs more than a small archive). */
export async function writeArchives(specs: ArchiveSpec[]): Promise<void> {
  if (specs.length === 0) return;
  const input = specs.map((a) => ({
    file: a.file,
    format: a.format,
    store: a.store,
    xzPreset: a.xzPreset,
    entries: a.entries.map((e) => ({ name: e.name, type: e.type ?? 'file', target: e.target, data: Buffer.from(e.data ?? '').toString('base64') })),
  }));
  await execa(await pythonItself(), ['-c', WRITER], { input: JSON.stringify(input) });
}

/** Writes exactly these entries, in this order, into an archive. */
export async function writeArchive(file: string, format: FixtureFormat, entries: FixtureEntry[], options: ArchiveOptions = {}): Promise<string> {
  await writeArchives([{ file, format, entries, ...options }]);
  return file;
}

/** Just enough of a PE file for the machine-type check: MZ, e_lfanew, "PE\0\0", machine. */
export function peBytes(machine: 'x64' | 'x86' = 'x64', padding = 256): Buffer {
  const b = Buffer.alloc(0x80 + 6 + padding);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  b.writeUInt16LE(machine === 'x64' ? 0x8664 : 0x14c, 0x84);
  return b;
}

export function cudnnHeader(version: string): { 'cudnn.h': string; 'cudnn_version.h'?: string } {
  const [maj, min, patch] = version.split('.');
  const defines = `#define CUDNN_MAJOR ${maj}\n#define CUDNN_MINOR ${min}\n#define CUDNN_PATCHLEVEL ${patch}\n\n#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n`;
  if (Number(maj) <= 7) return { 'cudnn.h': `/* cudnn : Neural Networks Library */\n#if !defined(CUDNN_H_)\n#define CUDNN_H_\n\n${defines}\n#endif\n` };
  return {
    'cudnn.h': `/* cudnn : Neural Networks Library */\n#if !defined(CUDNN_H_)\n#define CUDNN_H_\n#include "cudnn_version.h"\n#include "cudnn_ops_infer.h"\n#endif\n`,
    'cudnn_version.h': `/**\n * \\file: The master cuDNN version file.\n */\n#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n${defines}\n#endif\n`,
  };
}

export type CudnnEra = 'windows-cuda-folder' | 'linux-cuda-folder' | 'windows-archive' | 'linux-archive' | 'windows-bin-x64';

export interface CudnnArchiveSpec {
  era: CudnnEra;
  /** Four parts, as NVIDIA names the file: "7.6.5.32". */
  version?: string;
  /** "10.1" for ≤ 8.2 names; "12" or "11.5" for archive names. */
  cuda?: string;
  /** Bytes of random data in each library (default 1 KiB). */
  libraryBytes?: number;
  /** Extra libraries, to make a copy long enough to interrupt. */
  extraLibraries?: number;
  /** Override the file name. */
  fileName?: string;
  /**
   * Each library's bytes, in place of random ones: a real ELF shared object without a SONAME (the real
   * lane's ldconfig caches only ELF files, under their file names when they carry no SONAME).
   */
  libraryContent?: Buffer;
}

export interface BuiltArchive {
  file: string;
  name: string;
  format: FixtureFormat;
  version: string;
  /** The members that should land in the toolkit, and where, relative to it, for that OS. */
  expected: Record<string, string>;
}

const eraDefaults: Record<CudnnEra, { version: string; cuda: string }> = {
  'windows-cuda-folder': { version: '7.6.5.32', cuda: '10.1' },
  'linux-cuda-folder': { version: '7.6.5.32', cuda: '10.1' },
  'windows-archive': { version: '8.9.7.29', cuda: '12' },
  'linux-archive': { version: '8.9.7.29', cuda: '12' },
  'windows-bin-x64': { version: '9.20.0.48', cuda: '12' },
};

/** A cuDNN archive of that era, laid out as NVIDIA ships it. */
export async function buildCudnnArchive(dir: string, spec: CudnnArchiveSpec): Promise<BuiltArchive> {
  const version = spec.version ?? eraDefaults[spec.era].version;
  const cuda = spec.cuda ?? eraDefaults[spec.era].cuda;
  const [maj, min, patch] = version.split('.');
  const windows = spec.era.startsWith('windows');
  const lib = () => spec.libraryContent ?? randomBytes(spec.libraryBytes ?? 1024);
  const entries: FixtureEntry[] = [];
  const expected: Record<string, string> = {};
  const add = (name: string, dest: string | undefined, data: Buffer | string, type: 'file' | 'symlink' = 'file') => {
    entries.push(type === 'symlink' ? { name, type, target: String(data) } : { name, data });
    if (dest) expected[name] = dest;
  };
  const headers = cudnnHeader(version);
  const libDest = windows ? 'lib/x64' : 'lib64';
  let name: string;
  let format: FixtureFormat;
  let root: string;
  if (spec.era === 'windows-cuda-folder' || spec.era === 'linux-cuda-folder') {
    root = 'cuda';
    format = windows ? 'zip' : 'tar.gz';
    name = windows ? `cudnn-${cuda}-windows10-x64-v${version}.zip` : `cudnn-${cuda}-linux-x64-v${version}.tgz`;
  } else {
    root = `cudnn-${windows ? 'windows' : 'linux'}-x86_64-${version}_cuda${cuda}-archive`;
    format = windows ? 'zip' : 'tar.xz';
    name = `${root}.${windows ? 'zip' : 'tar.xz'}`;
  }
  const srcLib = spec.era === 'linux-cuda-folder' ? 'lib64' : windows ? 'lib/x64' : 'lib';
  const srcBin = spec.era === 'windows-bin-x64' ? 'bin/x64' : 'bin';
  for (const [h, text] of Object.entries(headers)) add(`${root}/include/${h}`, `include/${h}`, text);
  if (windows) {
    const dlls = [`cudnn64_${maj}.dll`, ...(Number(maj) >= 8 ? [`cudnn_ops_infer64_${maj}.dll`, `cudnn_cnn_infer64_${maj}.dll`] : [])];
    for (let i = 0; i < (spec.extraLibraries ?? 0); i++) dlls.push(`cudnn_extra${i}64_${maj}.dll`);
    for (const d of dlls) add(`${root}/${srcBin}/${d}`, `bin/${d}`, Buffer.concat([peBytes('x64'), lib()]));
    add(`${root}/${srcLib}/cudnn.lib`, `${libDest}/cudnn.lib`, lib());
  } else {
    const real = `libcudnn.so.${maj}.${min}.${patch}`;
    add(`${root}/${srcLib}/${real}`, `${libDest}/${real}`, lib());
    add(`${root}/${srcLib}/libcudnn.so.${maj}`, `${libDest}/libcudnn.so.${maj}`, real, 'symlink');
    add(`${root}/${srcLib}/libcudnn.so`, `${libDest}/libcudnn.so`, `libcudnn.so.${maj}`, 'symlink');
    add(`${root}/${srcLib}/libcudnn_static.a`, `${libDest}/libcudnn_static.a`, lib());
    for (let i = 0; i < (spec.extraLibraries ?? 0); i++) add(`${root}/${srcLib}/libcudnn_extra${i}.so.${maj}`, `${libDest}/libcudnn_extra${i}.so.${maj}`, lib());
  }
  add(`${root}/${spec.era.endsWith('folder') && root === 'cuda' ? 'NVIDIA_SLA_cuDNN_Support.txt' : 'LICENSE'}`, undefined, 'NVIDIA Software License Agreement\n');
  const fileName = spec.fileName ?? name;
  const file = path.join(dir, fileName);
  await writeArchive(file, format, entries);
  return { file, name: fileName, format, version, expected };
}

/** A toolkit folder as the CUDA installer leaves it: bin, include, lib64 (Linux) or lib\x64 (Windows). */
export async function makeToolkit(dir: string, os: 'linux' | 'windows', cuda = '10.1'): Promise<string> {
  const [maj, min] = cuda.split('.');
  const files: Record<string, string | Buffer> =
    os === 'windows'
      ? { [`bin/cudart64_${maj}${min}.dll`]: peBytes('x64'), 'bin/nvcc.exe': 'nvcc', 'include/cuda.h': '#define CUDA_VERSION 10010\n', 'lib/x64/cudart.lib': 'lib', 'version.txt': `CUDA Version ${cuda}.243\n` }
      : { 'bin/nvcc': '#!/bin/sh\n', 'include/cuda.h': '#define CUDA_VERSION 10010\n', [`lib64/libcudart.so.${cuda}.243`]: 'elf', 'version.txt': `CUDA Version ${cuda}.243\n` };
  for (const [rel, data] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), data);
  }
  return dir;
}

/** Every entry under a folder with its kind and content hash (or link target): equal digests, equal trees. */
export async function treeDigest(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    for (const name of (await readdir(path.join(dir, rel))).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const s = await lstat(path.join(dir, r));
      if (s.isSymbolicLink()) out[r] = `link:${await readlink(path.join(dir, r))}`;
      else if (s.isDirectory()) {
        out[r] = `dir:${(s.mode & 0o777).toString(8)}`;
        await walk(r);
      } else out[r] = `file:${(s.mode & 0o777).toString(8)}:${createHash('sha256').update(await readFile(path.join(dir, r))).digest('hex')}`;
    }
  };
  await walk('');
  return out;
}
