// Every cuDNN archive says how it can be had: a public copy (verified by its sha256, or marked
// unverified), the login download, or both — and `requirements` says which build a TF row takes and why.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cudnnChoiceLines, cudnnPlanReason } from '../../src/catalog/cudnn-choice.js';
import { builtinCatalog, loadCatalog } from '../../src/catalog/load.js';
import { findCudnnRelease, isPublicArchive, requirementsFor } from '../../src/catalog/queries.js';
import { setLang } from '../../src/i18n/localized.js';
import { OS_NAMES } from '../../src/platform.js';
import { compareDotted, majorMinor } from '../../src/version.js';
import { tempDir } from '../helpers/tmp.js';

const catalog = builtinCatalog();
const archives = catalog.cudnn.releases.flatMap((r) => Object.entries(r.archives).map(([os, a]) => ({ r, os, a: a! })));
const LOGIN = /^https:\/\/developer\.nvidia\.com\/(downloads\/)?compute\/(machine-learning\/)?cudnn\/secure\//;
const PUBLIC = /^https:\/\/developer\.download\.nvidia\.com\/compute\/(redist\/cudnn\/v\d+\.\d+\.\d+\/|cudnn\/redist\/cudnn\/(linux|windows)-x86_64\/)/;

afterEach(() => setLang('en'));

describe('every cuDNN archive in the catalog', () => {
  it('is gated exactly when no public copy is known, and a gated one carries the login URL', () => {
    expect(archives.length).toBe(149); // 101 + the 24 9.4–9.22 builds × 2 OSes
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
    expect(redist.length).toBe(80);
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

describe('cuDNN 9.x past 9.3, and the GPUs each one still serves (issue 40, item 7)', () => {
  const PRE_TURING = ['5.0', '5.2', '6.0', '6.1', '7.0'];
  const cudas = [...new Set(catalog.cuda.releases.map((r) => majorMinor(r.version)))];

  it('adds 9.10.0.56 (CUDA 11, 12) and 9.27.0.42 (CUDA 12, 13) from NVIDIA\'s redist manifests, each with its source', () => {
    const by = (v: string, c: string) => catalog.cudnn.releases.find((r) => r.version === v && r.cuda === c)!;
    expect(by('9.10.0.56', '12').archives.linux).toMatchObject({ sha256: 'cc0ad9eaaf6ef6569b20250111f9df0569816c17076c58aad8aea1661e2fc781', size: 1003184568, gated: false, manifestUrl: expect.stringMatching(/redistrib_9\.10\.0\.json$/) });
    expect(by('9.27.0.42', '13').archives.windows).toMatchObject({ file: 'cudnn-windows-x86_64-9.27.0.42_cuda13-archive.zip', layout: 'archive-folder-x64', size: 1330803635 });
    for (const r of catalog.cudnn.releases.filter((x) => /^9\.(10|27)\./.test(x.version))) {
      for (const a of Object.values(r.archives)) expect(catalog.cudnn.sources[a!.source!.split(' ')[0]], `${r.version}/${r.cuda}`).toBeTruthy();
    }
    const floors = catalog.cudnn.gpuFloors!;
    expect(floors.map((f) => [f.from, f.to, f.computeCapabilityMin, f.verified])).toEqual([['9.0', '9.10', '5.0', true], ['9.11', undefined, '7.5', false]]);
    for (const f of floors) expect(catalog.cudnn.sources[f.source], f.source).toBeTruthy();
  });

  it('adds every 9.x release between 9.3 and 9.27 whose redist manifest a public copy gives (9.4–9.9, 9.12, 9.13, 9.20, 9.22), with its CUDA majors, sha256, size and source', () => {
    const rows = catalog.cudnn.releases.filter((r) => /^9\.(4|5|6|7|8|9|12|13|20|22)\./.test(r.version));
    const byVersion = new Map<string, string[]>();
    for (const r of rows) byVersion.set(r.version, [...(byVersion.get(r.version) ?? []), r.cuda]);
    expect(Object.fromEntries(byVersion)).toEqual({
      '9.4.0.58': ['11', '12'], '9.5.0.50': ['11', '12'], '9.5.1.17': ['11', '12'], '9.6.0.74': ['11', '12'], '9.7.0.66': ['11', '12'],
      '9.7.1.26': ['11', '12'], '9.8.0.87': ['11', '12'], '9.9.0.52': ['11', '12'], '9.12.0.46': ['12', '13'], '9.13.0.50': ['12', '13'],
      '9.20.0.48': ['12', '13'], '9.22.0.52': ['12', '13'],
    });
    for (const r of rows) {
      const label = r.version.split('.').slice(0, 3).join('.');
      for (const os of ['linux', 'windows'] as const) {
        const a = r.archives[os]!;
        expect(a, `${r.version}/${r.cuda}/${os}`).toMatchObject({ gated: false, manifestUrl: `https://developer.download.nvidia.com/compute/cudnn/redist/redistrib_${label}.json` });
        expect(a.file).toBe(`cudnn-${os}-x86_64-${r.version}_cuda${r.cuda}-archive.${os === 'linux' ? 'tar.xz' : 'zip'}`);
        expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(a.size).toBeGreaterThan(100_000_000);
        expect(catalog.cudnn.sources[a.source!.split(' ')[0]], a.source).toContain(`redistrib_${label}.json`);
        // Windows DLLs moved under bin/x64 between 9.17 and 9.20.
        if (os === 'windows') expect(a.layout).toBe(Number(label.split('.')[1]) >= 20 ? 'archive-folder-x64' : 'archive-folder');
      }
    }
    const by = (v: string, c: string) => catalog.cudnn.releases.find((r) => r.version === v && r.cuda === c)!;
    // Two spot checks against NVIDIA's manifests as stored.
    expect(by('9.4.0.58', '12').archives.linux).toMatchObject({ sha256: '1ae128159a8c01b1fd8709050a30813ed9a4dd95824c0d3ddf841c52c8e25218', size: 745465960 });
    expect(by('9.22.0.52', '13').archives.windows).toMatchObject({ sha256: '11f714ad2699f1d548546fe8797ca563c498d4c66d5a4e9b6c2948325ca8da7d', size: 1262900618 });
    // No CUDA 11 build after 9.10 (the manifests list variants 12 and 13 only).
    expect(catalog.cudnn.releases.filter((r) => r.cuda === '11' && compareDotted(majorMinor(r.version), '9.10') > 0)).toEqual([]);
    // A pre-Turing GPU on CUDA 12 still ends at 9.10; a Turing one on CUDA 11 at 9.10 too (its last CUDA 11 build).
    expect(findCudnnRelease(catalog, '9', '12.5', 'linux', { computeCapability: '6.1' })!.version).toBe('9.10.0.56');
    expect(findCudnnRelease(catalog, '9', '11.8', 'linux', { computeCapability: '8.6' })!.version).toBe('9.10.0.56');
  });

  it('never hands a pre-Turing GPU a cuDNN ≥ 9.11: not for any TF row, not for a bare major, on any CUDA, on either OS', () => {
    let picks = 0;
    for (const os of OS_NAMES) {
      const asks = [...catalog.tensorflow[os].map((r) => [r.cudnn, r.cuda] as const), ...cudas.map((c) => ['9', c] as const), ...cudas.map((c) => ['9.3', c] as const)];
      for (const [cudnn, cuda] of asks) {
        for (const cc of [...PRE_TURING, undefined]) {
          const pick = findCudnnRelease(catalog, cudnn, cuda, os, cc ? { computeCapability: cc } : undefined);
          if (!pick) continue;
          picks++;
          const familyMin = catalog.cuda.families.find((f) => String(f.major) === cuda.split('.')[0])?.computeCapabilityMin ?? '0.0';
          // An unknown GPU is served as the oldest its CUDA runs; a pre-Turing one as itself.
          if (cc || compareDotted(familyMin, '7.5') < 0) expect(compareDotted(majorMinor(pick.version), '9.11'), `${os} cuDNN ${cudnn} CUDA ${cuda} GPU ${cc ?? '?'} → ${pick.version}`).toBeLessThan(0);
        }
      }
    }
    expect(picks).toBeGreaterThan(300);
    // What a pre-Turing GPU on CUDA 12.5 gets for libcudnn.so.9: the last 9.x that still supports it.
    expect(findCudnnRelease(catalog, '9', '12.5', 'linux', { computeCapability: '6.1' })!.version).toBe('9.10.0.56');
    expect(findCudnnRelease(catalog, '9', '12.5', 'linux')!.version).toBe('9.10.0.56');
    // CUDA 13 runs no pre-Turing GPU, so 9.27 is fine for an unknown one there, and a Pascal gets none.
    expect(findCudnnRelease(catalog, '9', '13.4', 'linux')!.version).toBe('9.27.0.42');
    expect(findCudnnRelease(catalog, '9', '13.4', 'linux', { computeCapability: '6.1' })).toBeUndefined();
  });

  it('gives a Turing-or-newer GPU the newest 9.x, and leaves every TF row on the minor it was tested with', () => {
    expect(findCudnnRelease(catalog, '9', '12.5', 'windows', { computeCapability: '8.6' })!.version).toBe('9.27.0.42');
    expect(findCudnnRelease(catalog, '9', '12.5', 'linux', { computeCapability: '7.5' })!.version).toBe('9.27.0.42');
    for (const os of OS_NAMES) {
      for (const row of catalog.tensorflow[os].filter((r) => r.cudnn.startsWith('9.'))) {
        expect(requirementsFor(catalog, row.version, os).cudnnArchive?.version, `${os} ${row.version}`).toBe('9.3.0.75');
      }
    }
  });

  it('a newer TF given by overlay on CUDA 13.4 takes 9.27 for CUDA 13, and the answer says which CUDA facts are unverified', async () => {
    const file = path.join(await tempDir(), 'newer.json');
    await writeFile(file, JSON.stringify({ tensorflow: { linux: [{ version: '2.99.0', python: ['3.11-3.13'], cuda: '13.4', cudnn: '9.27' }] } }));
    const r = requirementsFor(loadCatalog({ overlayFile: file }), '2.99', 'linux');
    expect(r.cudaInstaller).toMatchObject({ version: '13.4.2', file: 'cuda_13.4.2_linux.run' });
    expect(r.cudaInstaller!.bundledDriver).toBeUndefined();
    expect(r.cudnnArchive).toMatchObject({ version: '9.27.0.42', cuda: '13', pick: 'tested' });
    expect(r.driverMin).toBe('580.65.06'); // Table 3's 13.4 row is unverified: 13.x's minor-version minimum
    expect(r.notes).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Unverified: no stored public source gives CUDA 13\.4\.2's driver minimum/),
      expect.stringMatching(/^Unverified: .*13\.4\.2's installer checksum; the download is checked against NVIDIA's md5sum\.txt only\.$/),
    ]));
    setLang('zh');
    expect(requirementsFor(loadCatalog({ overlayFile: file }), '2.99', 'linux').notes.some((n) => n.startsWith('未经核实：'))).toBe(true);
  });
});
