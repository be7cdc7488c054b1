// Start-up is paid on every run, so the entry loads nothing it does not need: `--version` is answered
// by dist/cli.js alone, and each command loads only its own chunks. (bench/startup.mjs times it.)
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { builtCli, runBuilt, runCli } from '../helpers/cli.js';
import { inPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/tmp.js';

describe('the built entry, dist/cli.js', () => {
  it('answers --version on its own, without any chunk, and needs them for everything else', async () => {
    const dir = await tempDir('cudawiz-entry-');
    await mkdir(path.join(dir, 'dist'));
    const lone = path.join(dir, 'dist', 'cli.js');
    await copyFile(builtCli, lone);
    await copyFile(path.join(path.dirname(builtCli), '..', 'package.json'), path.join(dir, 'package.json'));
    await copyFile(path.join(path.dirname(builtCli), 'package.json'), path.join(dir, 'dist', 'package.json'));
    const version = await execa(process.execPath, [lone, '--version'], { reject: false });
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await execa(process.execPath, [lone, '--help'], { reject: false });
    expect(help.exitCode).not.toBe(0);
    expect(help.stderr).toContain('chunks');
  });

  it('stops quietly when the reader closes the pipe early (`cudawiz … | head`)', async () => {
    // `true` exits without reading, long before Node has started: every write meets a closed pipe.
    const r = await execa('bash', ['-o', 'pipefail', '-c', `"${process.execPath}" "${builtCli}" requirements --tf 2.3 --os linux | true`], { reject: false });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });
});

describe("the bundle's prebuilt built-in catalog", () => {
  it('answers exactly as the validating loader does from source', async () => {
    for (const os of ['linux', 'windows']) {
      const built = await runBuilt(['requirements', '--tf', '2.3', '--os', os, '--json']);
      const source = await runCli(['requirements', '--tf', '2.3', '--os', os, '--json']);
      expect(built.code).toBe(0);
      expect(JSON.parse(built.stdout)).toEqual(JSON.parse(source.stdout));
    }
  });

  it('still validates an overlay given with --catalog (exit 2, the bad field named)', async () => {
    const dir = await tempDir('cudawiz-overlay-');
    const overlay = path.join(dir, 'overlay.json');
    await writeFile(overlay, JSON.stringify({ cuda: [{ version: '10.1.243', installers: { linux: { sha256: 'not-hex' } } }] }));
    const r = await runBuilt(['requirements', '--tf', '2.3', '--catalog', overlay]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('The catalog is invalid');
    expect(r.stderr).toContain('sha256');
  });
});

describe('`requirements` from its own CommonJS file (dist/chunks/requirements.cjs)', () => {
  it('needs no other chunk: the bin, that file and the package markers answer it', async () => {
    const dir = await tempDir('cudawiz-requirements-alone-');
    const dist = path.dirname(builtCli);
    await mkdir(path.join(dir, 'dist', 'chunks'), { recursive: true });
    for (const file of ['cli.js', 'package.json', 'chunks/requirements.cjs', 'chunks/package.json']) await copyFile(path.join(dist, file), path.join(dir, 'dist', file));
    const lone = path.join(dir, 'dist', 'cli.js');
    const r = await execa(process.execPath, [lone, 'requirements', '--tf', '2.3', '--os', 'linux', '--json'], { reject: false });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tensorflow: '2.3', cuda: '10.1' });
    // Everything else is the full program's, which this copy lacks.
    const doctor = await execa(process.execPath, [lone, 'doctor', '--json'], { reject: false });
    expect(doctor.exitCode).not.toBe(0);
    expect(doctor.stderr).toContain('chunks');
  });

  it('answers every case, errors included, exactly as the program run from source does', async () => {
    const cases = [
      ['requirements', '--tf', '2.3', '--os', 'windows'],
      ['requirements', '--tf', '2.3', '--os', 'linux', '--gpu', 'RTX 2060', '--json'],
      ['requirements', '--tf', '2.3', '--os', 'linux', '--gpu', 'Quantum 9000'],
      ['requirements', '--os', 'linux'],
      ['requirements', '--tf', '2.3', '--bogus'],
      ['requirements', '--help'],
    ];
    // runBuilt (execa) drops the final newline.
    const text = (s: string) => s.replace(/\n$/, '');
    for (const argv of cases) {
      const built = await runBuilt(argv);
      const source = await runCli(argv);
      expect({ argv, code: built.code, stdout: text(built.stdout), stderr: text(built.stderr) }).toEqual({ argv, code: source.code, stdout: text(source.stdout), stderr: text(source.stderr) });
    }
  });

  it('leaves an overlay, by flag or by CUDAWIZ_CATALOG, to the full program, which validates it', async () => {
    const dir = await tempDir('cudawiz-overlay-');
    const overlay = path.join(dir, 'overlay.json');
    await writeFile(overlay, JSON.stringify({ cuda: [{ version: '10.1.243', installers: { linux: { sha256: 'not-hex' } } }] }));
    for (const run of [runBuilt(['requirements', '--tf', '2.3', `--catalog=${overlay}`]), runBuilt(['requirements', '--tf', '2.3'], { env: { CUDAWIZ_CATALOG: overlay } })]) {
      const r = await run;
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('The catalog is invalid');
    }
  });
});

describe("the wizard's first frame", () => {
  // What the wizard writes to erase the frame it drew before Ink loaded, then what Ink draws.
  const ERASE = '\u001B[?2026h\u001B[2K\u001B[1A\u001B[2K\u001B[1A\u001B[2K\u001B[G';
  const INK_FRAME = /\u001B\[\?2026h\u001B\[\?25l([^]*?)\u001B\[\?2026l/;

  it.each(['en', 'zh'])('goes up before Ink loads, and is exactly the frame Ink draws over it (%s)', async (lang) => {
    const home = await tempDir('cudawiz-first-frame-');
    const r = await inPty([process.execPath, builtCli, '--lang', lang, '--cuda-root', path.join(home, 'cuda')], {
      env: { HOME: home, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, LANG: 'C.UTF-8' },
      untilRaw: INK_FRAME,
      timeoutMs: 20_000,
    });
    const erasedAt = r.raw.indexOf(ERASE);
    expect(erasedAt).toBeGreaterThan(0);
    const drawnFirst = r.raw.slice(0, erasedAt);
    expect(drawnFirst).toContain(lang === 'zh' ? '正在检查这台机器…' : 'Looking at this machine…');
    expect(INK_FRAME.exec(r.raw.slice(erasedAt + ERASE.length))?.[1]).toBe(drawnFirst);
  });
});
