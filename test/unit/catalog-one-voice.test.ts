// One voice per fact (issue 26, part 6): whether a cuDNN archive needs NVIDIA's login, and a download's
// size, come from one catalog function each (src/catalog/archive-facts.ts, src/format.ts), and every
// screen says them the same way: requirements, the plan's reason, the doctor's fix, explain's fix, in
// both languages. Found: doctor said cuDNN 8.6 needs a login while install used the public copy, and
// dry-run plans said "Downloads 0 B" for installers whose size is unknown.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { archiveAccess, isPublicArchive, publicCopyUrl } from '../../src/catalog/archive-facts.js';
import { cudnnArchiveFor, cudnnChoiceLines, cudnnGetFix, cudnnPlanReason } from '../../src/catalog/cudnn-choice.js';
import { builtinCatalog } from '../../src/catalog/load.js';
import { findCudnnRelease, requirementsFor } from '../../src/catalog/queries.js';
import { explainLog } from '../../src/doctor/explain.js';
import { formatSize, formatTotalSize } from '../../src/format.js';
import { setLang } from '../../src/i18n/localized.js';
import { OS_NAMES } from '../../src/platform.js';
import { repoRoot, runCli } from '../helpers/cli.js';

const catalog = builtinCatalog();
afterEach(() => setLang('en'));

describe('public copy or login: one fact', () => {
  it('for every TF row with a cuDNN archive, requirements, the plan reason and the doctor\'s fix all follow archiveAccess', () => {
    const seen = { public: 0, login: 0 };
    for (const os of OS_NAMES) {
      for (const row of catalog.tensorflow[os]) {
        const r = requirementsFor(catalog, row.version, os);
        const a = r.cudnnArchive;
        if (!a) continue;
        const release = catalog.cudnn.releases.find((x) => x.version === a.version && x.cuda === a.cuda)!;
        const access = archiveAccess(release.archives[os]!);
        seen[access]++;
        const at = `TF ${row.version} ${os}: cuDNN ${a.version}`;
        expect(a.access, at).toBe(access);
        expect(Boolean(publicCopyUrl(a)), at).toBe(access === 'public');
        const fix = cudnnGetFix(a, r.tensorflow, { cudnn: r.cudnn, cuda: r.cuda!, page: catalog.cudnn.archivePage });
        const reason = cudnnPlanReason(a);
        const lines = cudnnChoiceLines(a, r.row).join('\n');
        if (access === 'public') {
          expect(fix, at).toContain('a public copy, no login needed');
          expect(fix, at).not.toMatch(/log in|--cudnn-archive/);
          expect(reason, at).toContain('public copy, no login');
          expect(lines, at).not.toMatch(/NVIDIA has no public copy/);
        } else {
          expect(fix, at).toContain(`--cudnn-archive FILE, with FILE = ${a.file} (log in at `);
          expect(reason, at).toContain('behind a free NVIDIA login');
          expect(lines, at).toContain('it needs a free NVIDIA login');
        }
      }
    }
    expect(seen.public).toBeGreaterThan(0);
    expect(seen.login).toBeGreaterThan(0);
  });

  it("the issue's case: TF 2.12 on Linux takes cuDNN 8.6's public copy, and the doctor's fix says so in both languages", () => {
    const r = requirementsFor(catalog, '2.12', 'linux');
    expect(r.cudnnArchive).toMatchObject({ access: 'public' });
    expect(r.cudnnArchive!.version).toMatch(/^8\.6\./);
    const fallback = { cudnn: r.cudnn, cuda: r.cuda!, page: catalog.cudnn.archivePage };
    expect(cudnnGetFix(r.cudnnArchive, r.tensorflow, fallback)).toBe(`cudawiz install --tf ${r.tensorflow} (it downloads ${r.cudnnArchive!.file}, a public copy, no login needed)`);
    setLang('zh');
    expect(cudnnGetFix(r.cudnnArchive, r.tensorflow, fallback)).toContain('公开下载，不用登录');
  });

  it("explain's cuDNN fix follows the same fact: no --cudnn-archive for a public copy", () => {
    for (const [cudart, cudnnMajor] of [['libcudart.so.11.0', '8'], ['libcudart.so.10.1', '7']] as const) {
      const log = `I tensorflow/stream_executor/platform/default/dso_loader.cc:48] Successfully opened dynamic library ${cudart}\nW tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'libcudnn.so.${cudnnMajor}'; dlerror: libcudnn.so.${cudnnMajor}: cannot open shared object file: No such file or directory`;
      const e = explainLog(catalog, log);
      const fix = e.findings.find((f) => f.id === 'missing-cudnn')!.fix;
      // The archive is the plan's for the TF the fix names (#40: one query, cudnnArchiveFor).
      const archive = cudnnArchiveFor(catalog, fix.match(/--tf ([\d.]+)/)![1], 'linux')!.archive!;
      expect(fix, cudart).toContain(archive.file);
      if (archive.access === 'public') {
        expect(fix, cudart).toContain('a public copy, no login needed');
        expect(fix, cudart).not.toContain('--cudnn-archive');
      } else expect(fix, cudart).toContain('--cudnn-archive FILE');
    }
  });

  it('isPublicArchive is archiveAccess plus a checksum: an unverified public copy needs no login but is not auto-picked', () => {
    expect(archiveAccess({ url: 'https://x/a.zip', gated: false, unverified: true } as never)).toBe('public');
    expect(isPublicArchive({ url: 'https://x/a.zip', gated: false, unverified: true } as never)).toBe(false);
    expect(archiveAccess({ url: 'https://login/a.zip', gated: true, publicUrl: 'https://x/a.zip' } as never)).toBe('public');
    expect(publicCopyUrl({ url: 'https://login/a.zip', gated: true } as never)).toBeUndefined();
  });
});

describe('a size, or "size unknown" — never "0 B"', () => {
  it('formatSize and formatTotalSize, in both languages', () => {
    expect(formatSize(1181116006)).toBe('1.1 GiB');
    expect(formatSize(undefined)).toBe('size unknown');
    expect(formatSize(0)).toBe('size unknown');
    expect(formatTotalSize([1024, 2048])).toBe('3.0 KiB');
    expect(formatTotalSize([1024, undefined])).toBe('at least 1.0 KiB (1 size unknown)');
    expect(formatTotalSize([undefined, undefined])).toBe('size unknown');
    expect(formatTotalSize([])).toBe('size unknown');
    setLang('zh');
    expect(formatSize(undefined)).toBe('大小未知');
    expect(formatTotalSize([1024, undefined, undefined])).toBe('至少 1.0 KiB（2 个大小未知）');
  });

  it('requirements prints the public copy\'s URL from publicCopyUrl, and none for a login-gated archive', async () => {
    const pub = await runCli(['requirements', '--tf', '2.12', '--os', 'linux']);
    const a = requirementsFor(catalog, '2.12', 'linux').cudnnArchive!;
    expect(pub.stdout).toContain(publicCopyUrl(a)!);
    const login = await runCli(['requirements', '--tf', '2.3', '--os', 'windows']);
    const b = requirementsFor(catalog, '2.3', 'windows').cudnnArchive!;
    expect(b.access).toBe('login');
    expect(login.stdout).not.toContain(b.url);
    expect(login.stdout).toContain(`log in at ${b.page} and download ${b.file}`);
  });
});

// Where a screen still derives the fact itself, in files another helper owns (src/plan/** is being
// restructured): the lead switches these to publicCopyUrl / formatSize / formatTotalSize, then empties this list.
const KEPT: [string, RegExp][] = [];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

describe('nobody else derives the access fact or prints an unknown size as a number', () => {
  it('outside src/catalog/archive-facts.ts, no `gated`/`publicUrl` test decides access; no size falls back to "?" or 0 B (except the listed plan lines)', () => {
    const found: string[] = [];
    for (const file of sources(path.join(repoRoot, 'src'))) {
      const rel = path.relative(repoRoot, file);
      if (rel === path.join('src', 'catalog', 'archive-facts.ts') || rel.startsWith(path.join('src', 'catalog', 'schema')) || rel.startsWith(path.join('src', 'catalog', 'load'))) continue;
      const text = readFileSync(file, 'utf8');
      for (const [i, line] of text.split('\n').entries()) {
        if (/^\s*(\/\/|\*)/.test(line)) continue;
        const derives = /\.gated\s*(===|!==|\?)|\.gated\)|publicUrl\s*\?\?|size \? formatBytes\([^)]*\) : '\?'|formatBytes\(\w+\.downloadBytes\)/.test(line);
        if (derives && !KEPT.some(([f, re]) => f === rel && re.test(line))) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      }
    }
    expect(found).toEqual([]);
    for (const [f, re] of KEPT) expect(re.test(readFileSync(path.join(repoRoot, f), 'utf8')), `${f} ${re}`).toBe(true);
  });
});
