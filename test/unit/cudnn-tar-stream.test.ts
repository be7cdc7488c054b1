// The Linux archives are read by our own streaming tar reader in one pass. These stories feed it
// archives other tools write (pax, GNU long names) and hostile or damaged ones, each refused with
// the toolkit left byte-for-byte as it was and nothing written anywhere else.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CudawizError } from '../../src/errors.js';
import { importCudnn, inspectCudnnArchive } from '../../src/cudnn/index.js';
import { cudnnHeader, makeToolkit, pythonItself, treeDigest } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

interface RawEntry {
  name: string;
  type?: 'file' | 'symlink' | 'hardlink';
  data?: string;
  target?: string;
  /** pax records for this entry (pax format only). */
  pax?: Record<string, string>;
  /** Declared size when there is no data to write (the body is left out: a header only). */
  declaredSize?: number;
}

// Python's tarfile writes the headers; the test then damages or truncates the bytes as a story needs.
const WRITER = String.raw`
import gzip, io, json, lzma, sys, tarfile
spec = json.load(sys.stdin)
fmt = {'gnu': tarfile.GNU_FORMAT, 'pax': tarfile.PAX_FORMAT}[spec['tar']]
out = io.BytesIO()
for e in spec['entries']:
    i = tarfile.TarInfo(e['name']); i.mtime = 1572480000; i.mode = 0o644
    if e.get('pax'): i.pax_headers = e['pax']
    data = e.get('data', '').encode()
    if e['type'] == 'symlink': i.type = tarfile.SYMTYPE; i.linkname = e['target']
    elif e['type'] == 'hardlink': i.type = tarfile.LNKTYPE; i.linkname = e['target']
    elif e.get('declaredSize') is not None: i.size = e['declaredSize']; data = None
    else: i.size = len(data)
    out.write(i.tobuf(fmt, 'utf-8', 'surrogateescape'))
    if data:
        out.write(data + b'\0' * ((512 - len(data) % 512) % 512))
if not spec.get('noEnd'): out.write(b'\0' * 1024)
raw = bytearray(out.getvalue())
if spec.get('flipAt') is not None: raw[spec['flipAt']] ^= 0x20
packed = gzip.compress(bytes(raw)) if spec['zip'] == 'gz' else lzma.compress(bytes(raw))
open(spec['file'], 'wb').write(packed)
print(json.dumps({'tarBytes': len(raw)}))
`;

async function writeTar(
  file: string,
  entries: RawEntry[],
  options: { tar?: 'gnu' | 'pax'; zip?: 'gz' | 'xz'; flipAt?: number; noEnd?: boolean } = {},
): Promise<string> {
  const spec = { file, tar: options.tar ?? 'gnu', zip: options.zip ?? 'gz', flipAt: options.flipAt, noEnd: options.noEnd, entries: entries.map((e) => ({ type: 'file', ...e })) };
  await execa(await pythonItself(), ['-c', WRITER], { input: JSON.stringify(spec) });
  return file;
}

const header = cudnnHeader('7.6.5')['cudnn.h'];
/** A small but real cuDNN 7.6.5 for Linux, in the ≤ 8.2 layout. */
const cudnn765: RawEntry[] = [
  { name: 'cuda/include/cudnn.h', data: header },
  { name: 'cuda/lib64/libcudnn.so.7.6.5', data: 'ELF and more' },
  { name: 'cuda/lib64/libcudnn.so.7', type: 'symlink', target: 'libcudnn.so.7.6.5' },
];

async function linuxToolkit() {
  const dir = path.join(await tempDir(), 'cuda-10.1');
  await mkdir(dir);
  await makeToolkit(dir, 'linux');
  await writeFile(path.join(dir, 'include/cudnn.h'), '/* the user’s own cuDNN 7.4 header */\n');
  return dir;
}

/** Imports, expects a refusal with this problem code, and the toolkit exactly as it was. */
async function expectRefused(archive: string, code: string, options: { maxTotalBytes?: number } = {}) {
  const toolkit = await linuxToolkit();
  const before = await treeDigest(toolkit);
  const error = await importCudnn({ archive, toolkitDir: toolkit, os: 'linux', tfCudnn: '7.6', cudaVersion: '10.1', ...options }).catch((e: unknown) => e);
  expect(error, code).toBeInstanceOf(CudawizError);
  expect((error as CudawizError).options.details?.problems, code).toEqual(expect.arrayContaining([expect.objectContaining({ code })]));
  expect(await treeDigest(toolkit), code).toEqual(before);
  return error as CudawizError;
}

describe('archives written by other tar programs', () => {
  it('a pax archive with a 150-character folder name and pax link targets imports like any other', async () => {
    const dir = await tempDir();
    const root = `cudnn-linux-x86_64-8.9.7.29_cuda12-archive-${'rebuilt-by-a-mirror-'.repeat(5)}`;
    expect(root.length).toBeGreaterThan(100);
    const eight = cudnnHeader('8.9.7');
    const file = await writeTar(
      path.join(dir, 'cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz'),
      [
        { name: `${root}/include/cudnn_version.h`, data: eight['cudnn_version.h'] },
        { name: `${root}/include/cudnn.h`, data: eight['cudnn.h'] },
        { name: `${root}/lib/libcudnn.so.8.9.7`, data: 'ELF' },
        { name: `${root}/lib/libcudnn.so.8`, type: 'symlink', target: 'libcudnn.so.8.9.7', pax: { linkpath: 'libcudnn.so.8.9.7' } },
        { name: `${root}/LICENSE`, data: 'license' },
      ],
      { tar: 'pax', zip: 'xz' },
    );
    const toolkit = await linuxToolkit();
    const m = await importCudnn({ archive: file, toolkitDir: toolkit, os: 'linux', tfCudnn: '8.9', cudaVersion: '12.3' });
    expect(m.archive.version).toBe('8.9.7');
    expect(m.files.map((f) => f.path).sort()).toEqual(['include/cudnn.h', 'include/cudnn_version.h', 'lib64/libcudnn.so.8', 'lib64/libcudnn.so.8.9.7']);
    expect(await readFile(path.join(toolkit, 'lib64/libcudnn.so.8.9.7'), 'utf8')).toBe('ELF');
    expect(m.files.find((f) => f.path === 'lib64/libcudnn.so.8')).toMatchObject({ type: 'symlink', linkTarget: 'libcudnn.so.8.9.7' });
  });

  it('GNU long names (over 100 characters) are read from their ././@LongLink entries', async () => {
    const deep = `cuda/lib64/libcudnn_${'x'.repeat(120)}.so.7`;
    const file = await writeTar(path.join(await tempDir(), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'), [...cudnn765, { name: deep, data: 'ELF' }]);
    const r = await inspectCudnnArchive(file, { os: 'linux', tfCudnn: '7.6', cudaVersion: '10.1' });
    expect(r.ok).toBe(true);
    expect(r.members.map((m) => m.source)).toContain(deep);
  });
});

describe('refused by the streaming reader, the toolkit unchanged', () => {
  it('a gzip cut off in the middle of a library', async () => {
    const dir = await tempDir();
    const whole = await writeTar(path.join(dir, 'whole.tgz'), [...cudnn765, { name: 'cuda/lib64/libcudnn_static.a', data: 'static'.repeat(40_000) }]);
    const bytes = await readFile(whole);
    const cut = path.join(dir, 'cudnn-10.1-linux-x64-v7.6.5.32.tgz');
    await writeFile(cut, bytes.subarray(0, bytes.length - 200));
    const error = await expectRefused(cut, 'corrupt');
    expect(error.message).toMatch(/damaged or incomplete/);
  });

  it('a .tar.xz cut off midway, with xz’s own complaint', async () => {
    const dir = await tempDir();
    const whole = await writeTar(path.join(dir, 'whole.tar.xz'), [...cudnn765, { name: 'cuda/lib64/libcudnn_static.a', data: 'static'.repeat(40_000) }], { zip: 'xz' });
    const bytes = await readFile(whole);
    const cut = path.join(dir, 'cudnn-linux-x86_64-7.6.5.32_cuda10.1-archive.tar.xz');
    await writeFile(cut, bytes.subarray(0, bytes.length >> 1));
    const error = await expectRefused(cut, 'corrupt');
    expect(error.message).toMatch(/xz|end/i);
  });

  it('a header whose checksum does not match (one byte of a name flipped in transit)', async () => {
    // The second header starts after the first's 512-byte header and its 512-byte-padded body.
    const at = 512 + Math.ceil(Buffer.byteLength(header) / 512) * 512 + 10;
    const file = await writeTar(path.join(await tempDir(), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'), cudnn765, { flipAt: at });
    const error = await expectRefused(file, 'corrupt');
    expect(error.message).toMatch(/checksum/);
  });

  it('a pax path that climbs out of the target, behind an innocent ustar name', async () => {
    const file = await writeTar(
      path.join(await tempDir(), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'),
      [...cudnn765, { name: 'cuda/lib64/libcudnn_ops.so.7', data: 'payload', pax: { path: 'cuda/lib64/../../../../../tmp/cudawiz-evil.so' } }],
      { tar: 'pax' },
    );
    const error = await expectRefused(file, 'unsafe-path');
    expect(error.message).toContain('cuda/lib64/../../../../../tmp/cudawiz-evil.so');
  });

  it('a symlink pointing out of the toolkit, in a .tar.xz, stops the pass before the files after it', async () => {
    const dir = await tempDir();
    const file = await writeTar(
      path.join(dir, 'cudnn-linux-x86_64-7.6.5.32_cuda10.1-archive.tar.xz'),
      [...cudnn765, { name: 'cuda/lib64/libcudnn.so', type: 'symlink', target: '../../../etc/shadow' }, { name: 'cuda/lib64/libcudnn.so/evil', data: 'x' }],
      { zip: 'xz' },
    );
    const error = await expectRefused(file, 'unsafe-path');
    expect(error.message).toContain('../../../etc/shadow');
    // Listed to the end, "…/libcudnn.so/evil" would be a second problem (written through the link).
    expect(error.options.details?.problems).toHaveLength(1);
  });

  it('a hard link (cuDNN never ships one)', async () => {
    const file = await writeTar(path.join(await tempDir(), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'), [
      ...cudnn765,
      { name: 'cuda/lib64/libcudnn.so', type: 'hardlink', target: 'cuda/lib64/libcudnn.so.7.6.5' },
    ]);
    await expectRefused(file, 'unsupported-entry');
  });

  it('a size bomb: a 1 TiB member is refused at its header, before any of its body is read', async () => {
    // The archive ends right after the bomb's header: reading on would have met "ends in the middle", not the bound.
    const file = await writeTar(path.join(await tempDir(), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'), [...cudnn765, { name: 'cuda/lib64/libcudnn_static.a', declaredSize: 2 ** 40 }], { noEnd: true });
    const error = await expectRefused(file, 'too-large');
    expect(error.message).toMatch(/unpacks to at least 1\.0 TiB/);
  });

  it('a bound passed midway through many real members stops there', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ name: `cuda/lib64/libcudnn_part${i}.so.7`, data: 'p'.repeat(10_000) }));
    const file = await writeTar(path.join(await tempDir(), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'), [...cudnn765, ...many]);
    const error = await expectRefused(file, 'too-large', { maxTotalBytes: 100_000 });
    expect(error.message).toMatch(/unpacks to at least/);
  });

  it('a hostile archive offered as a re-copy leaves the earlier, complete import in place', async () => {
    const dir = await tempDir();
    const toolkit = await linuxToolkit();
    await importCudnn({ archive: await writeTar(path.join(dir, 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'), cudnn765), toolkitDir: toolkit, os: 'linux' });
    const imported = await treeDigest(toolkit);
    const evil = await writeTar(path.join(dir, 'evil.tgz'), [...cudnn765, { name: 'cuda/lib64/libcudnn.so', type: 'symlink', target: '/etc/passwd' }]);
    const error = await importCudnn({ archive: evil, toolkitDir: toolkit, os: 'linux', replacePrevious: true }).catch((e: unknown) => e);
    expect((error as CudawizError).options.details?.problems).toEqual([expect.objectContaining({ code: 'unsafe-path' })]);
    // The archive is refused before the earlier copy is rolled back: manifest, backups and files all as they were.
    expect(await treeDigest(toolkit)).toEqual(imported);
  });
});
