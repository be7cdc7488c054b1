// cudawiz on NVIDIA's real software as Debian 12 ships it (packages.ts), each machine state in a box of
// its own (box.ts). The real loader loads the real libraries and the doctor must agree with it; the real
// nvidia-smi fails as it does without a kernel module, and cuDriverGetVersion still answers.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { otherUserCli } from '../helpers/other-user.js';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { startMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';
import { PROBED_LIBRARIES, runBox, runBoxAsync, type BoxResult, type BoxSpec } from './box.js';

const FIXTURES = path.join(repoRoot, 'test/fixtures/nvidia-smi');

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

const LIB = '/usr/lib/x86_64-linux-gnu';

/** What an older cudawiz wrote for TF 2.11 as root: CUDA 11.2's folder for every program, sorted before the distro's. */
const OLD_CUDA_112 = [
  'mkdir -p /usr/local/cuda-11.2/lib64 /usr/local/cuda-11.2/include',
  `cp ${LIB}/libcudart.so.11.8.89 /usr/local/cuda-11.2/lib64/libcudart.so.11.0`,
  "printf '#define CUDART_VERSION  11020\\n' > /usr/local/cuda-11.2/include/cuda_runtime_api.h",
  "printf '{\"cuda\":{\"name\":\"CUDA SDK\",\"version\":\"11.2.2\"}}' > /usr/local/cuda-11.2/version.json",
].join('\n');
const OLD_CONF = `${OLD_CUDA_112}\nprintf '# Written by cudawiz: CUDA 11.2 for TensorFlow 2.11. \`cudawiz rollback\` removes it.\\n/usr/local/cuda-11.2/lib64\\n' > /etc/ld.so.conf.d/cudawiz-cuda-11.2.conf`;
const byId = (r: BoxResult) => Object.fromEntries(r.json.report.findings.map((f) => [f.id, f]));
const log = (name: string, r: BoxResult) => process.stdout.write(`\n── ${name} (${r.seconds.toFixed(1)} s)\n${r.doctor.text}\n`);

/** The doctor's winner for each library it checks equals the folder of the file the real loader mapped. */
function expectLoaderAgrees(r: BoxResult, files: string[]): void {
  const f = byId(r);
  for (const file of files) {
    const loaded = r.dlopen.loaded[file];
    expect(typeof loaded, `${file}: ${JSON.stringify(loaded)}`).toBe('string');
    const lib = Object.values(f).find((x) => x.id.startsWith('library:') && x.title.startsWith(`${file} `));
    // Libraries one folder shadows are one load-order finding, each library a line "FILE: wins: DIR (via); …".
    const grouped = Object.values(f).find((x) => x.id.startsWith('load-order:') && x.evidence.some((e) => e.startsWith(`${file}: wins: `)));
    expect(lib ?? grouped, `doctor finding for ${file}`).toBeDefined();
    // "libcudart.so.11.0 resolves to DIR" / "FILE: wins: DIR": the folder the loader really used.
    if (lib) expect(lib.title).toContain(path.dirname(loaded as string));
    else expect(grouped!.evidence.find((e) => e.startsWith(`${file}: wins: `))).toContain(`wins: ${path.dirname(loaded as string)} `);
  }
}

describe("Debian 12's apt CUDA 11.8 (nvidia-cuda-toolkit 11.8.89)", () => {
  it('is one complete toolkit at /usr, read from dpkg, serving TF 2.5–2.14; TF 2.12 needs only cuDNN', () => {
    const r = runBox({ layers: ['cuda'], doctor: ['doctor', '--tf', '2.12'] });
    log('apt CUDA only', r);
    const usr = r.json.report.toolkits.find((t) => t.path === '/usr');
    expect(usr).toEqual({ version: '11.8.89', path: '/usr', aliases: ['/usr/lib/cuda', '/usr/lib/nvidia-cuda-toolkit'], readable: true, missing: ['cudnn'] });
    // --json and the text agree: the share block lists the same toolkit and what it lacks.
    expect(r.doctor.text).toContain('toolkits: 11.8.89 /usr (no cudnn)');
    const f = byId(r);
    expect(f.toolkit).toMatchObject({ status: 'pass', title: 'CUDA 11.8 installed: /usr' });
    expect(f['toolkit-complete']).toBeUndefined();
    expect(f[`cuda-runtime:${LIB}`]).toMatchObject({ status: 'pass', title: `CUDA 11.8.89 runtime at ${LIB} (libcudart.so.11.0) serves TensorFlow 2.5–2.14` });
    expect(f[`cuda-runtime:${LIB}`].evidence).toContain('by CUDA 11 minor-version compatibility: TensorFlow 2.5–2.11 (built with CUDA 11.2); needs driver 450.80.02 or newer');
    expect(f.cudnn.status).toBe('fail');
    expect(r.doctor.text).toContain('CUDA 11.8.89 at /usr');
    // The real loader takes every runtime library from where apt put it, as the doctor says.
    expectLoaderAgrees(r, PROBED_LIBRARIES.filter((l) => l !== 'libcuda.so.1'));
    for (const l of PROBED_LIBRARIES.filter((x) => x !== 'libcuda.so.1')) expect(path.dirname(r.dlopen.loaded[l] as string)).toBe(LIB);
  });

  it("is still found with another toolkit's nvcc first on PATH, and that nvcc is never run", () => {
    const r = runBox({
      layers: ['cuda'],
      setup: "mkdir -p /usr/local/cuda-12.4/bin && printf '#!/bin/sh\\ntouch /var/tmp/other-nvcc-ran\\necho \"Cuda compilation tools, release 12.4, V12.4.131\"\\n' > /usr/local/cuda-12.4/bin/nvcc && chmod 755 /usr/local/cuda-12.4/bin/nvcc && printf '{\"cuda\":{\"name\":\"CUDA SDK\",\"version\":\"12.4.1\"}}' > /usr/local/cuda-12.4/version.json",
      path: '/usr/local/cuda-12.4/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      doctor: ['doctor', '--tf', '2.11'],
      after: 'ls /var/tmp/other-nvcc-ran 2>/dev/null || echo never-ran',
    });
    log("apt CUDA, another toolkit's nvcc first", r);
    expect(r.json.report.toolkits.find((t) => t.path === '/usr')).toMatchObject({ version: '11.8.89', missing: ['cudnn'] });
    expect(r.json.report.toolkits.find((t) => t.path === '/usr/local/cuda-12.4')).toMatchObject({ version: '12.4.1' });
    const f = byId(r);
    expect(f.toolkit).toMatchObject({ status: 'pass', title: expect.stringContaining("CUDA 11.2's libraries from CUDA 11.8") });
    expect(r.after.trim()).toBe('never-ran');
  });
});

describe("Debian 12's driver 535.261.03, user space only (no kernel module)", () => {
  it('the real nvidia-smi fails, cuDriverGetVersion answers, and the doctor names the missing module with the package fix', () => {
    // explain reads the real nvidia-smi's own words, as a user pastes them.
    const r = runBox({ layers: ['driver'], doctor: ['doctor', '--tf', '2.12'], after: 'nvidia-smi 2>&1 | node "$CUDAWIZ" explain -; echo "explain-rc=$?"' });
    log('driver without its kernel module', r);
    expect(r.smi).toEqual({ code: 9, text: "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n" });
    expect(r.nvidiactlInside).toBe(true);
    expect(existsSync('/dev/nvidiactl')).toBe(false);
    expect(r.dlopen.cuDriverGetVersion).toEqual({ rc: 0, version: 12020 });
    expect(r.dlopen.cuInit).toBe(100);
    expect(path.basename(String(r.dlopen.loaded['libcuda.so.1']))).toBe('libcuda.so.535.261.03');
    expect(r.json.report.driver).toEqual({ version: '535.261.03', source: 'userspace library' });
    const f = byId(r);
    expect(f.gpu).toMatchObject({ status: 'fail', title: 'NVIDIA driver 535.261.03 is installed, but its kernel module is not loaded' });
    expect(f.gpu.evidence).toEqual(expect.arrayContaining([
      '/proc/driver/nvidia/version: absent (no NVIDIA kernel driver loaded)',
      `driver 535.261.03 from its library's file name: ${r.dlopen.loaded['libcuda.so.1']}`,
      'installed by the package manager: libcuda1 535.261.03 (dpkg)',
    ]));
    expect(f.gpu.fix).toContain('sudo dkms autoinstall');
    expect(f.gpu.fix).not.toContain('nvidia.com');
    expect(r.doctor.text).toContain('✗ NVIDIA driver 535.261.03 is installed, but its kernel module is not loaded');
    expect(f.driver.evidence).toEqual(['driver 535.261.03 (userspace library)', 'kernel module not loaded']);
    expect(r.after).toMatch(/kernel/i);
    expect(r.after).not.toContain('prints no reason');
  });

  it('install --tf 2.12 --dry-run stops at the missing module with the package fix, exit 1, and plans nothing after it', () => {
    const r = runBox({ layers: ['driver', 'cuda'], doctor: ['install', '--tf', '2.12', '--dry-run'] });
    log('install --tf 2.12 --dry-run, driver without its module, apt CUDA', r);
    expect(r.doctor.code).toBe(1);
    expect(planOf(r)!.steps.map((s) => s.id)).toEqual(['stop']);
    expect(r.doctor.text).toContain('NVIDIA driver 535.261.03 is installed, but its kernel module is not loaded');
    expect(r.doctor.text).toContain('sudo dkms autoinstall');
    expect(r.doctor.text).not.toContain('cuda_11.8.0_520.61.05_linux.run');
  });

  it('with apt CUDA and the ld.so.conf.d file an older cudawiz wrote for 11.2: the loader takes that copy, and the doctor says so', () => {
    const r = runBox({
      layers: ['driver', 'cuda'],
      // What an older cudawiz left: a CUDA 11.2 toolkit folder and /etc/ld.so.conf.d/cudawiz-cuda-11.2.conf, which sorts before the distro's.
      setup: OLD_CONF,
      doctor: ['doctor', '--tf', '2.12'],
    });
    log('driver without module, apt CUDA, and an 11.2 copy cudawiz added', r);
    expect(r.dlopen.loaded['libcudart.so.11.0']).toBe('/usr/local/cuda-11.2/lib64/libcudart.so.11.0');
    expectLoaderAgrees(r, ['libcudart.so.11.0', 'libcublas.so.11']);
    const f = byId(r);
    // One cause, one finding: the 11.2 folder wins for libcudart, ahead of apt's 11.8 copy.
    const shadow = f[`load-order:${LIB}`];
    expect(shadow).toMatchObject({ status: 'fail', title: `1 of TensorFlow's libraries load from /usr/local/cuda-11.2/lib64 (CUDA 11.2.2), ahead of the right copy in ${LIB} (CUDA 11.8.89)` });
    expect(shadow.evidence).toContain(`libcudart.so.11.0: wins: /usr/local/cuda-11.2/lib64 (ld cache); ${LIB} (ld cache)`);
    expect(f.gpu.title).toBe('NVIDIA driver 535.261.03 is installed, but its kernel module is not loaded');
    // It is cudawiz's own file: the fix takes it away for every program, not an order around it for one user.
    expect(shadow.evidence).toContain('/etc/ld.so.conf.d/cudawiz-cuda-11.2.conf was written by cudawiz (an older run): it gives that folder to every program on the machine');
    expect(shadow.fix).toContain("cudawiz repair --tf 2.12 removes cudawiz's own /etc/ld.so.conf.d/cudawiz-cuda-11.2.conf and rebuilds the loader's cache");
  });
});

/**
 * The same driver with its kernel module loaded, as nvidia-smi and /proc then say (an RTX 2060 on it:
 * the fixture nvidia-smi with this driver's version; /proc/driver/nvidia/version on a private tmpfs).
 * The libraries, the loader and dpkg's records stay NVIDIA's and Debian's real ones.
 */
const MODULE_LOADED = [
  `mkdir -p /var/tmp/smi && cp ${q(path.join(FIXTURES, 'answer-query.sh'))} /var/tmp/smi/`,
  `sed 's/525.78.01/535.261.03/' ${q(path.join(FIXTURES, 'rtx2060-laptop.sh'))} > /var/tmp/smi/nvidia-smi && chmod 755 /var/tmp/smi/nvidia-smi`,
  // In place of the alternatives link, with the helper it sources beside it (it looks in its own folder).
  'rm -f /usr/bin/nvidia-smi && cp /var/tmp/smi/nvidia-smi /var/tmp/smi/answer-query.sh /usr/bin/',
  'mount -t tmpfs none /proc/driver && mkdir -p /proc/driver/nvidia',
  'echo "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.261.03  Release Build" > /proc/driver/nvidia/version',
].join('\n');

/** A shared object of this host's Python with no SONAME (readelf says so), to stand in for cuDNN's libraries. */
function elfWithoutSoname(): string {
  for (const dir of readdirSync('/usr/lib').filter((d) => /^python3\.\d+$/.test(d)).map((d) => `/usr/lib/${d}/lib-dynload`)) {
    for (const f of existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith('_json.') && n.endsWith('.so')) : []) {
      const file = path.join(dir, f);
      if (!/SONAME/.test(execFileSync('readelf', ['-d', file], { encoding: 'utf8' }))) return file;
    }
  }
  throw new Error('no ELF shared object without a SONAME in /usr/lib/python3.*/lib-dynload');
}

/** A loopback mirror serving a cuDNN 8.6 archive (the real lane has no network), and the flags that point cudawiz at it. */
async function cudnnMirror() {
  const mirror = await startMirror({ root: await tempDir('cw-real-mirror-') });
  // Its libraries are a real ELF shared object without a SONAME (one of Python's own modules), so the
  // real ldconfig caches them under cuDNN's names, as it does NVIDIA's.
  const archive = await buildCudnnArchive(await tempDir('cw-real-cudnn-'), { era: 'linux-archive', version: '8.6.0.163', cuda: '11', libraryContent: await readFile(elfWithoutSoname()) });
  const bytes = await readFile(archive.file);
  await mirror.addFile(`compute/cudnn/redist/cudnn/linux-x86_64/${archive.name}`, bytes);
  // Readable by nobody too (the non-root box runs cudawiz as nobody).
  const overlayDir = await tempDir('cw-real-overlay-');
  await chmod(overlayDir, 0o755);
  const overlay = path.join(overlayDir, 'overlay.json');
  await writeFile(overlay, JSON.stringify({ cudnn: [{ version: '8.6.0.163', cuda: '11', archives: { linux: { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length } } }] }));
  return { mirror, archive, flags: ['--catalog', overlay, '--mirror', mirror.url] };
}

/**
 * `after` lines: the doctor for TF 2.12 as `shell` runs it ("bash -ic": the user's new shell; "env -u
 * LD_LIBRARY_PATH bash -c": any program), its exit, then its findings that did not pass and cuDNN's, as JSON.
 */
const doctorLines = (shell: string, flags: string[]) => [
  `${shell} 'node "$CUDAWIZ" doctor --tf 2.12 --json ${flags.map(q).join(' ')}' 2>/dev/null > "$HOME/doctor.json"; echo "doctor-rc=$?"`,
  `node -e 'const r=JSON.parse(require("fs").readFileSync(process.env.HOME+"/doctor.json","utf8")); console.log(JSON.stringify(r.findings.filter(f=>f.status!=="pass"||f.id==="cudnn").map(f=>[f.id,f.status,f.title])))'`,
];

/** The doctor those lines ran passed: exit 0, nothing but passes and skips, and the cuDNN it judged. */
function expectDoctorPassed(rc: string, findings: string, cudnn: string | RegExp): void {
  expect(rc).toBe('doctor-rc=0');
  const seen = JSON.parse(findings) as [string, string, string][];
  expect(seen.filter(([, status]) => status !== 'pass' && status !== 'skip')).toEqual([]);
  expect(seen.find(([id]) => id === 'cudnn')).toEqual(['cudnn', 'pass', typeof cudnn === 'string' ? cudnn : expect.stringMatching(cudnn)]);
}

/**
 * A box run of a command that changes the machine, pointed at a cuDNN mirror of its own (flags added):
 * its --json run comes first and must exit 0; `after` gets the same flags. The mirror's requests come back.
 */
async function changeBox(spec: Omit<BoxSpec, 'doctor' | 'jsonFirst' | 'after'> & { command: string[]; after: (flags: string[]) => string[] }) {
  const { mirror, archive, flags } = await cudnnMirror();
  try {
    const r = await runBoxAsync({ ...spec, doctor: [...spec.command, ...flags], jsonFirst: true, after: spec.after(flags).join('\n') });
    expect(r.json.code, JSON.stringify(r.json.lines.filter((l) => l.type === 'step-failed'))).toBe(0);
    return { r, archive, requests: mirror.requests.map((x) => x.path) };
  } finally {
    await mirror.close();
  }
}

const planOf = (r: BoxResult) => r.json.lines.find((l) => l.type === 'plan') as { steps: { id: string; title: string; reason?: string }[] } | undefined;

describe("installing TensorFlow over Debian 12's apt CUDA 11.8 (driver 535 with its module loaded)", () => {
  // apt's files as installed, to compare after a run: none changed, no cuDNN added among them.
  const APT_BEFORE = `find ${LIB} /usr/include -maxdepth 1 -type f \\( -name 'libcu*' -o -name 'cu*.h' \\) -exec md5sum {} + > /var/tmp/apt-before.md5`;
  const APT_INTACT = `md5sum -c --quiet /var/tmp/apt-before.md5 >/dev/null 2>&1 && [ "$(find ${LIB} /usr/include -newer /var/tmp/apt-before.md5 -name '*cudnn*' | wc -l)" = 0 ] && echo apt-files-intact || echo apt-files-changed`;

  it('as root, TF 2.12 and TF 2.11: only cuDNN, in a folder of its own given to every program by a conf file of its own; no CUDA installer', () => {
    for (const tf of ['2.12', '2.11']) {
      const r = runBox({ layers: ['driver', 'cuda'], setup: MODULE_LOADED, doctor: ['install', '--tf', tf, '--dry-run'], after: 'ls /etc/ld.so.conf.d' });
      log(`install --tf ${tf} --dry-run over apt's CUDA, as root`, r);
      const steps = planOf(r)!.steps;
      const ids = steps.map((s) => s.id).filter((id) => id !== 'left-to-you');
      const cudnn = tf === '2.12' ? '8.6' : '8.1';
      expect(ids, r.doctor.text).toEqual(['cuda-serves', 'disk-space', 'obtain-cudnn', 'import-cudnn', 'cudnn-for-everyone', 'verify']);
      expect(steps.find((s) => s.id === 'import-cudnn')!.reason).toBe(`include, lib into /usr/local/cudnn-${cudnn}-cuda11 (nothing of the distribution's packages is written), under a manifest`);
      expect(steps.find((s) => s.id === 'cudnn-for-everyone')!.reason).toBe(`writes /etc/ld.so.conf.d/cudawiz-cudnn-${cudnn}-cuda11.conf, ldconfig`);
      // No conf file for a CUDA folder: nothing shadows apt's libraries for any program.
      expect(r.doctor.text).not.toMatch(/cudawiz-cuda-\d/);
      expect(r.doctor.code).toBe(0);
      expect(r.after).not.toContain('cudawiz');
    }
  });

  it("as root, install --yes: cuDNN from the mirror, every program finds it, apt's files untouched; the doctor passes without any shell setup, rollback takes it back", async () => {
    const { r, archive, requests } = await changeBox({
      layers: ['driver', 'cuda'],
      setup: `${MODULE_LOADED}\n${APT_BEFORE}`,
      command: ['install', '--tf', '2.12', '--yes', '--configure-env', 'yes'],
      after: (flags) => [
        APT_INTACT,
        'ls /etc/ld.so.conf.d | grep cudawiz || echo none',
        // Any program: a plain non-interactive shell, no rc file read.
        ...doctorLines('env -u LD_LIBRARY_PATH bash -c', flags),
        `node "$CUDAWIZ" rollback ${flags.map(q).join(' ')} >/dev/null 2>&1; echo "rollback-rc=$?"`,
        'ls /usr/local/cudnn-8.6-cuda11/lib64 2>/dev/null | wc -l; ls /etc/ld.so.conf.d | grep -c cudawiz || true',
      ],
    });
    log("install --tf 2.12 --yes over apt's CUDA, as root (the second run)", r);
    expect(r.doctor.code, r.doctor.text).toBe(0);
    expect(planOf(r)!.steps.map((s) => s.id)).toEqual(['cuda-serves', 'disk-space', 'obtain-cudnn', 'import-cudnn', 'cudnn-for-everyone', 'verify']);
    // Only the cuDNN archive came down.
    expect(requests.filter((p) => p.endsWith('.xz') || p.endsWith('.run'))).toEqual([expect.stringContaining(archive.name)]);
    const [intact, conf, rc, findings, rollback, libsLeft, confsLeft] = r.after.trim().split('\n');
    expect(intact).toBe('apt-files-intact');
    expect(conf).toBe('cudawiz-cudnn-8.6-cuda11.conf');
    expectDoctorPassed(rc, findings, 'cuDNN 8.6.0 in /usr/local/cudnn-8.6-cuda11/lib64 (needs 8.6)');
    expect([rollback, libsLeft, confsLeft]).toEqual(['rollback-rc=0', '0', '0']);
  });

  it("as a user without administrator rights (nobody), install --yes: cuDNN in the user's own folder, found by the user's new shells; nothing of the system changes", async () => {
    const { r } = await changeBox({
      layers: ['driver', 'cuda'],
      setup: `${MODULE_LOADED}\n${APT_BEFORE}`,
      command: ['install', '--tf', '2.12', '--yes', '--configure-env', 'yes'],
      asNobody: true,
      cli: await otherUserCli(),
      after: (flags) => [APT_INTACT, 'ls /etc/ld.so.conf.d | grep -c cudawiz || true', ...doctorLines('bash -ic', flags)],
    });
    log("install --tf 2.12 --yes over apt's CUDA, as nobody (the second run)", r);
    expect(planOf(r)!.steps.map((s) => s.id)).toEqual(['cuda-serves', 'disk-space', 'obtain-cudnn', 'import-cudnn', 'load-order', 'verify']);
    const [intact, confs, rc, findings] = r.after.trim().split('\n');
    expect(intact).toBe('apt-files-intact');
    expect(confs).toBe('0');
    expectDoctorPassed(rc, findings, /^cuDNN 8\.6\.0 in \/tmp\/cudawiz-real-\w+\/home\/\.local\/share\/cudawiz\/cudnn-8\.6-cuda11\/lib64 \(needs 8\.6\)$/);
  });

  it("repair --yes with an older cudawiz's ld.so.conf.d file for 11.2: the file goes (every program loads apt's 11.8 again), cuDNN comes for every program, the doctor passes", async () => {
    const { r } = await changeBox({
      layers: ['driver', 'cuda'],
      setup: `${MODULE_LOADED}\n${OLD_CONF}`,
      command: ['repair', '--tf', '2.12', '--yes', '--configure-env', 'yes'],
      after: (flags) => ['ls /etc/ld.so.conf.d | grep cudawiz || echo none', ...doctorLines('env -u LD_LIBRARY_PATH bash -c', flags)],
    });
    log("repair --tf 2.12 --yes over apt's CUDA and an older cudawiz's 11.2 conf file (the second run)", r);
    // Run again, it has nothing left to do.
    expect(r.doctor.code, r.doctor.text).toBe(0);
    const steps = planOf(r)!.steps;
    expect(steps.map((s) => s.id)).toEqual(['disk-space', 'obtain-cudnn', 'import-cudnn', 'remove-own-conf', 'cudnn-for-everyone', 'verify']);
    expect(steps[3].title).toMatch(/^Remove cudawiz's own \/etc\/ld\.so\.conf\.d\/cudawiz-cuda-11\.2\.conf \(an older run's\), then ldconfig — fixes: 1 of TensorFlow's libraries load from \/usr\/local\/cuda-11\.2\/lib64/);
    // Every program: the probe runs after the repair as root, with no LD_LIBRARY_PATH, and the real loader takes apt's copy.
    expect(r.dlopen.loaded['libcudart.so.11.0']).toBe(`${LIB}/libcudart.so.11.8.89`);
    const [confs, rc, findings] = r.after.trim().split('\n');
    expect(confs).toBe('cudawiz-cudnn-8.6-cuda11.conf');
    expectDoctorPassed(rc, findings, 'cuDNN 8.6.0 in /usr/local/cudnn-8.6-cuda11/lib64 (needs 8.6)');
  });
});
