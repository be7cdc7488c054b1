// Every cuDNN archive says how it can be had: a public copy (verified by its sha256, or marked
// unverified), the login download, or both — and `requirements` says which build a TF row takes and why.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cudnnChoiceLines, cudnnPlanReason } from '../../src/catalog/cudnn-choice.js';
import { builtinCatalog, loadCatalog } from '../../src/catalog/load.js';
import { isPublicArchive, requirementsFor } from '../../src/catalog/queries.js';
import { setLang } from '../../src/i18n/localized.js';
import { OS_NAMES } from '../../src/platform.js';
import { majorMinor } from '../../src/version.js';
import { tempDir } from '../helpers/tmp.js';

const catalog = builtinCatalog();
const archives = catalog.cudnn.releases.flatMap((r) => Object.entries(r.archives).map(([os, a]) => ({ r, os, a: a! })));
const LOGIN = /^https:\/\/developer\.nvidia\.com\/(downloads\/)?compute\/(machine-learning\/)?cudnn\/secure\//;
const PUBLIC = /^https:\/\/developer\.download\.nvidia\.com\/compute\/(redist\/cudnn\/v\d+\.\d+\.\d+\/|cudnn\/redist\/cudnn\/(linux|windows)-x86_64\/)/;

afterEach(() => setLang('en'));

describe('every cuDNN archive in the catalog', () => {
  it('is gated exactly when no public copy is known, and a gated one carries the login URL', () => {
    expect(archives.length).toBe(93);
    for (const { r, os, a } of archives) {
      const at = `${r.version}/${r.cuda} ${os}`;
      expect(a.publicUrl, at).toBeUndefined(); // the built-in catalog keeps a public copy in `url`
      if (a.gated) {
        expect(a.url, at).toMatch(LOGIN);
        expect(a.loginUrl, at).toBeUndefined();
        expect(isPublicArchive(a), at).toBe(false);
      } else {
        expect(a.url, at).toMatch(PUBLIC);
        expect(a.url.endsWith(`/${a.file}`), at).toBe(true);
        if (a.loginUrl) expect(a.loginUrl, at).toMatch(LOGIN);
      }
      expect(a.source, at).toBeTruthy();
    }
  });

  it('has a sha256 for every public copy, or says it is unverified (and then has none)', () => {
    for (const { r, os, a } of archives.filter((x) => !x.a.gated)) {
      const at = `${r.version}/${r.cuda} ${os}`;
      if (a.unverified) expect(a.sha256, at).toBeUndefined();
      else expect(a.sha256, at).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(archives.filter((x) => x.a.unverified).map((x) => `${x.r.version} ${x.os}`)).toEqual(['8.1.1.33 windows']);
  });

  it('gives the redist-era public archives their manifest and size, as NVIDIA\'s redistrib JSON lists them', () => {
    const redist = archives.filter((x) => x.a.url.includes('/compute/cudnn/redist/'));
    expect(redist.length).toBe(24);
    for (const { r, os, a } of redist) {
      expect(a.manifestUrl, `${r.version} ${os}`).toMatch(/^https:\/\/developer\.download\.nvidia\.com\/compute\/cudnn\/redist\/redistrib_[\d.]+\.json$/);
      expect(a.size, `${r.version} ${os}`).toBeGreaterThan(100 * 2 ** 20);
    }
    const by = (v: string, c: string, os: 'linux' | 'windows') => catalog.cudnn.releases.find((r) => r.version === v && r.cuda === c)!.archives[os]!;
    // The builds a user asked for: TF 2.14's 8.7 ([and-cuda] pins 8.7.0.84), 8.9.7 for CUDA 11, the hashes of 8.9.7 and 9.3.
    expect(by('8.7.0.84', '11', 'linux')).toMatchObject({ sha256: '976c4cba7233c97ae74006afab5172976300ba40f5b250a21f8cf71f59c9f76d', size: 886423308, gated: false });
    expect(by('8.9.7.29', '11', 'linux')).toMatchObject({ sha256: 'a3e2509028cecda0117ce5a0f42106346e82e86d390f4bb9475afc976c77402e', size: 860967256 });
    expect(by('8.9.7.29', '12', 'windows')).toMatchObject({ sha256: '94fc17af8e83a26cc5d231ed23981b28c29c3fc2e87b1844ea3f46486f481df5', size: 708408517 });
    expect(by('9.3.0.75', '12', 'linux').sha256).toBe('3d6ef10aa06dc9339a477e2b057e085ff8500bbdee79e42c7e13655c9eff2c26');
    // A login file whose public copy the manifest confirms byte for byte keeps both URLs.
    expect(by('8.6.0.163', '11', 'windows')).toMatchObject({ gated: false, sha256: '78b4e5c455c4e8303b5d6c5401916fb0d731ea5da72b040cfa81e0a340040ae3' });
    expect(by('8.6.0.163', '11', 'windows').loginUrl).toContain('/secure/8.6.0/');
  });

  it('counts what moved from login to public, and what stays behind the login', () => {
    const moved = archives.filter((x) => !x.a.gated && x.a.loginUrl);
    const loginOnly = archives.filter((x) => x.a.gated);
    expect(moved.length).toBe(38);
    expect(loginOnly.length).toBe(36);
    // The one TF-tested build with no public copy at all: cuDNN 7.6.5 for CUDA 10.1 on Windows (TF 2.1–2.3).
    expect(loginOnly.map((x) => `${x.r.version}/${x.r.cuda} ${x.os}`)).toContain('7.6.5.32/10.1 windows');
  });
});

describe('requirements says, for cuDNN, public or login, which build and why', () => {
  it('answers every TF row: the Windows TF 2.1–2.3 build stays behind the login, every other row has a public copy', () => {
    const login: string[] = [];
    for (const os of OS_NAMES) {
      for (const row of catalog.tensorflow[os]) {
        const r = requirementsFor(catalog, row.version, os);
        const a = r.cudnnArchive;
        if (!a) continue; // CUDA 8 rows: the catalog names the gap
        expect(a.access, `${row.version} ${os}`).toBe(isPublicArchive(a) || a.unverified ? 'public' : 'login');
        expect(a.tested).toBe(row.cudnn);
        expect(cudnnChoiceLines(a, row.version).length).toBeGreaterThan(0);
        if (a.access === 'login') login.push(`${majorMinor(row.version)} ${os}`);
      }
    }
    expect(login).toEqual(['2.3 windows', '2.2 windows', '2.1 windows']);
  });

  it('offers a compatible public build with the reason, and the tested login build as the alternative, when the tested minor has no public copy', async () => {
    // A catalog where cuDNN 8.0 for Linux is login-only (as it was before its public copies were recorded).
    const gated80 = catalog.cudnn.releases
      .filter((r) => r.version.startsWith('8.0.') && r.archives.linux)
      .map((r) => ({ version: r.version, cuda: r.cuda, archives: { linux: { gated: true, url: r.archives.linux!.loginUrl ?? r.archives.linux!.url } } }));
    const file = path.join(await tempDir(), 'overlay.json');
    await writeFile(file, JSON.stringify({ cudnn: gated80 }));
    const r = requirementsFor(loadCatalog({ overlayFile: file }), '2.4', 'linux');
    expect(r.cudnnArchive).toMatchObject({ version: '8.1.1.33', access: 'public', pick: 'compatible', tested: '8.0', alternative: { version: '8.0.5.39', access: 'login' } });
    const lines = cudnnChoiceLines(r.cudnnArchive!, r.row);
    expect(lines).toContain('TF 2.4 was tested with cuDNN 8.0; 8.1 is compatible: same major, newer minor; no login needed');
    expect(lines.join('\n')).toContain('the tested build, cuDNN 8.0.5.39 (cudnn-11.0-linux-x64-v8.0.5.39.tgz), needs a free NVIDIA login at https://developer.nvidia.com/rdp/cudnn-archive');
    expect(cudnnPlanReason(r.cudnnArchive!)).toBe('cudnn-11.2-linux-x64-v8.1.1.33.tgz (public copy, no login; compatible with the tested cuDNN 8.0)');
    setLang('zh');
    expect(cudnnChoiceLines(r.cudnnArchive!, r.row)).toContain('TF 2.4 测试用的是 cuDNN 8.0；8.1 与之兼容：主版本相同、次版本更新；无需登录');
    expect(cudnnPlanReason(requirementsFor(catalog, '2.3', 'windows').cudnnArchive!)).toBe('cudnn-10.1-windows10-x64-v7.6.5.32.zip（需要登录 NVIDIA 开发者账号，免费）');
  });

  it('names the page and file for a login-only build, and the sha256 check for a public one', () => {
    const login = requirementsFor(catalog, '2.3', 'windows').cudnnArchive!;
    expect(cudnnChoiceLines(login, '2.3.0')).toEqual([
      'cuDNN 7.6.5.32 for CUDA 10.1: NVIDIA has no public copy of it; it needs a free NVIDIA login',
      'log in at https://developer.nvidia.com/rdp/cudnn-archive and download cudnn-10.1-windows10-x64-v7.6.5.32.zip',
    ]);
    const pub = requirementsFor(catalog, '2.10', 'windows').cudnnArchive!;
    expect(cudnnChoiceLines(pub, '2.10.0')).toEqual(['cuDNN 8.1.0.77 for CUDA 11.2: a public copy, no login needed, checked against its sha256 as it downloads']);
  });
});
