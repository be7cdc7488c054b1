// The pages' screens, captured for real: the built wizard in tmux at 80×24 against a fixture laptop
// (test/helpers/laptop.ts: local NVIDIA mirror, fixture nvidia-smi and runfile, fixture TensorFlow),
// driven by keystrokes, plus the headless commands' output. Each capture goes to a sink under its title;
// a page holds it under `<!-- capture: TITLE -->` (scripts/capture-screens.pages.ts). Used by
// scripts/capture-screens.ts (which prints or writes them) and test/unit/docs-captures.test.ts (which
// holds the pages to what the built CLI draws now).
import { rm, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { builtCli, repoRoot } from '../test/helpers/cli.js';
import { buildCudnnArchive } from '../test/helpers/cudnn-archive.js';
import { CUDA_101, laptop, type Laptop } from '../test/helpers/laptop.js';
import { openTerminal, type Terminal } from '../test/helpers/tmux.js';

const TF23 = path.join(repoRoot, 'test/fixtures/python/tf23-linux-gpu');
const CUDA_1103 = { version: '11.0.3', runPath: 'compute/cuda/11.0.3/local_installers/cuda_11.0.3_450.51.06_linux.run' };

/** Every capture's title: a page's marker must name one of these. */
export const CAPTURE_TITLES = [
  ...['scan', 'choose TensorFlow', 'plan', 'progress', 'loader path question', 'ready', 'waiting for cuDNN', 'the wrong cuDNN archive', 'the installer fails', 'the installer fails (exit code)'].flatMap((t) => [`wizard: ${t}`, `zh wizard: ${t}`]),
  'wizard: choose TensorFlow 2.4', 'wizard: route question (TF 2.18)',
  'requirements', 'explain', 'doctor', 'install --dry-run', 'download cuda', 'download cudnn (gated)', 'install --yes', 'repair', 'rollback', 'install --verbose',
  'error: unknown TF version', 'error: the wizard without a terminal', 'error: checksum mismatch', 'error: a bad overlay',
] as const;

/** Where a capture goes: its title (the name a page's `<!-- capture: NAME -->` marker uses) and its text. */
export type Sink = (title: string, text: string) => Promise<void>;

/** A capture as the pages hold it: no trailing blanks, mkdtemp's random suffixes as XXXXXX. */
export function cleanCapture(text: string): string {
  // Trailing blanks of the 24 rows say nothing.
  let body = text.replace(/[ \t]+$/gm, '').replace(/\n+$/, '');
  // mkdtemp's random suffixes (also where tmux wrapped a path), kept the same width so the wrapping stays as captured.
  for (const [, suffix] of body.matchAll(/cw-(?:home|mirror)-([A-Za-z0-9]{6})/g)) body = body.replaceAll(suffix, 'XXXXXX');
  return body;
}

async function wizard(machine: Laptop, env: Record<string, string> = {}): Promise<Terminal> {
  return openTerminal([process.execPath, builtCli, ...machine.globals], { env: { ...machine.env, ...env } });
}

async function withLaptop(make: () => Promise<Laptop>, body: (m: Laptop) => Promise<void>): Promise<void> {
  const machine = await make();
  try {
    await body(machine);
  } finally {
    await machine.mirror.close();
  }
}

/** The words a capture waits for, per language. */
const WORDS = {
  en: {
    scan: 'New setup', newSetup: /❯ New setup/, choose: 'Which TensorFlow version?', go: 'Go ahead?', archive: 'Archive path:', done: 'Enter or q quit', prefix: 'wizard',
    failed: '✗ Install the CUDA toolkit', envQuestion: /TensorFlow\s+finds\s+CUDA\s+10\.1\?/, no: /❯ No/, ready: 'Your machine is ready', envStep: '✓ Make the libraries findable', copying: /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Copy cuDNN into the CUDA folder\n\s+[█░]+ \d+%/,
  },
  zh: {
    scan: '为某个 TensorFlow 版本全新安装', newSetup: /❯ 为某个 TensorFlow 版本全新安装/, choose: '选择 TensorFlow 版本', go: '开始吗？', archive: '压缩包路径：', done: 'Enter 或 q 退出', prefix: 'zh wizard',
    failed: '✗ 安装 CUDA 工具包', envQuestion: /让\s*TensorFlow\s*找到\s*CUDA\s*10\.1/, no: /❯ 否/, ready: '这台机器已经可以用 TensorFlow 了', envStep: '✓ 让系统找到动态链接库', copying: /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 把 cuDNN 复制进 CUDA 目录\n\s+[█░]+ \d+%/,
  },
};

/**
 * A first-time TF 2.3 setup: scan, choose, plan, download and install progress, the env question, done.
 * `toPlan` stops at the plan (the three screens README.md shows; quick enough for npm test).
 */
export async function setup(show: Sink, lang: 'en' | 'zh' = 'en', toPlan = false): Promise<void> {
  const w = WORDS[lang];
  await withLaptop(
    () => laptop(undefined, { pythonPath: TF23 }),
    async (machine) => {
      // A slow link and a slow installer, so the progress screens stay up long enough to capture.
      machine.mirror.fault({ mode: 'trickle', path: '.run', bytesPerSecond: 2048 });
      // SHELL as a login terminal has it, so the loader-path step also offers the shell's startup file.
      const term = await wizard(machine, { CUDA_FIXTURE_SLOW_FILES: '40', SHELL: '/bin/bash', CUDAWIZ_LANG: lang });
      try {
        await show(`${w.prefix}: scan`, await term.waitFor(w.scan, 30_000));
        await pick(term, w.newSetup);
        await term.keys('Enter');
        await show(`${w.prefix}: choose TensorFlow`, await term.waitFor(w.choose));
        await term.keys('Enter');
        await show(`${w.prefix}: plan`, await term.waitFor(w.go, 30_000));
        if (toPlan) return;
        await term.keys('Enter');
        // A step with something to count draws a bar; the cuDNN copy's stays up longest on the fixture laptop.
        await show(`${w.prefix}: progress`, await term.waitFor(w.copying, 60_000));
        await show(`${w.prefix}: loader path question`, await term.waitFor(w.envQuestion, 60_000));
        await term.keys('Down');
        await term.waitFor(w.no);
        await term.keys('Enter');
        await term.waitFor(w.ready, 60_000);
        // The answer's lines push the step's title above the 24 rows; tmux's history still holds it.
        await show(`${w.prefix}: ready`, await scrollback(term, w.envStep));
        await term.keys('q');
        await term.exitCode();
      } finally {
        await term.kill();
      }
    },
  );
}

/** The pane with its history, from the last line holding `from`. */
async function scrollback(term: Terminal, from: string): Promise<string> {
  const { stdout } = await execa('tmux', ['-L', term.name, 'capture-pane', '-p', '-S', '-200', '-t', term.name]);
  return stdout.slice(stdout.lastIndexOf(from));
}

/** Moves the picker down, one frame at a time, until the wanted line is the focused one. */
async function pick(term: Terminal, focused: RegExp): Promise<string> {
  let screen = await term.screen();
  for (let i = 0; i < 60 && !focused.test(screen); i++) {
    const before = screen;
    await term.keys('Down');
    const deadline = Date.now() + 5_000;
    while (screen === before && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 30));
      screen = await term.screen();
    }
  }
  if (!focused.test(screen)) throw new Error(`The picker never focused ${String(focused)}. Screen:\n${screen}`);
  return screen;
}


/** TF 2.4 needs cuDNN 8.0.5 for CUDA 11.0, whose Linux tgz is behind NVIDIA's login: the wizard waits. */
export async function cudnnWait(show: Sink, lang: 'en' | 'zh' = 'en'): Promise<void> {
  const w = WORDS[lang];
  await withLaptop(
    () => laptop(CUDA_1103),
    async (machine) => {
      await rm(machine.archive);
      const elsewhere = path.join(machine.home, 'elsewhere');
      await mkdir(elsewhere);
      // The seed's mistake the other way round: a cuDNN 7 archive where TF 2.4 loads libcudnn.so.8.
      const wrong = await buildCudnnArchive(elsewhere, { era: 'linux-cuda-folder' });
      const term = await wizard(machine, { CUDAWIZ_LANG: lang });
      try {
        await term.waitFor(w.scan, 30_000);
        await pick(term, w.newSetup);
        await term.keys('Enter');
        await term.waitFor(w.choose);
        const chosen = await pick(term, /❯ TensorFlow 2\.4\.0 /);
        if (lang === 'en') await show('wizard: choose TensorFlow 2.4', chosen);
        await term.keys('Enter');
        await term.waitFor(w.go, 30_000);
        await term.keys('Enter');
        await show(`${w.prefix}: waiting for cuDNN`, await term.waitFor(w.archive, 60_000));
        await term.type(wrong.file);
        await term.waitFor('elsewhere/');
        await term.keys('Enter');
        // The step's ✗ comes a frame before the run's own "Stopped" line: wait for the screen's last state.
        await show(`${w.prefix}: the wrong cuDNN archive`, await term.waitFor(w.done, 30_000));
      } finally {
        await term.kill();
      }
    },
  );
}

/** TF ≥ 2.14 on Linux can take CUDA and cuDNN as pip wheels or as a system toolkit: the wizard asks which. */
export async function route(show: Sink): Promise<void> {
  await withLaptop(
    () => laptop(),
    async (machine) => {
      const term = await wizard(machine);
      try {
        await term.waitFor('New setup', 30_000);
        await pick(term, /❯ New setup/);
        await term.keys('Enter');
        await term.waitFor('Which TensorFlow version?');
        await pick(term, /❯ TensorFlow 2\.18\.0 /);
        await term.keys('Enter');
        await show('wizard: route question (TF 2.18)', await term.waitFor(/How\s+should\s+TensorFlow\s+2\.18\.0\s+get\s+CUDA/, 30_000));
      } finally {
        await term.kill();
      }
    },
  );
}

/** The runfile stops half-way ("Installation failed"): the wizard shows the log's tail and what to do. */
export async function installerFails(show: Sink, lang: 'en' | 'zh' = 'en'): Promise<void> {
  const w = WORDS[lang];
  await withLaptop(
    () => laptop(undefined, { pythonPath: TF23 }),
    async (machine) => {
      const term = await wizard(machine, { CUDA_FIXTURE_FAIL: 'exit:1', CUDAWIZ_LANG: lang });
      try {
        await term.waitFor(w.scan, 30_000);
        await pick(term, w.newSetup);
        await term.keys('Enter');
        await term.waitFor(w.choose);
        await term.keys('Enter');
        await term.waitFor(w.go, 30_000);
        await term.keys('Enter');
        await term.waitFor(w.done, 60_000);
        // The step's failure has scrolled above the 24 rows; tmux's history still holds it.
        await show(`${w.prefix}: the installer fails`, await scrollback(term, w.failed));
        await term.keys('q');
        await show(`${w.prefix}: the installer fails (exit code)`, `[exit ${await term.exitCode()}]`);
      } finally {
        await term.kill();
      }
    },
  );
}

/** A headless command as a user types it: stdout and stderr as they interleave, then the exit code. */
async function headless(show: Sink, title: string, args: string[], env: Record<string, string>, globals: string[] = []): Promise<void> {
  const r = await execa(process.execPath, [builtCli, ...args, ...globals], { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, extendEnv: false, all: true, reject: false });
  await show(title, `$ cudawiz ${args.join(' ')}\n${r.all ?? ''}\n[exit ${r.exitCode}]`);
}

/**
 * PATH without the folders that hold an `nvcc`: the doctor counts the nvcc on PATH as a toolkit, and the
 * machine that runs the captures must not show its own in the fixture laptop's report.
 */
function pathWithoutNvcc(p: string): string {
  return p.split(path.delimiter).filter((dir) => dir && !existsSync(path.join(dir, 'nvcc'))).join(path.delimiter);
}

/** Headless samples, on the fixture laptop (requirements and explain need no machine at all). */
export async function samples(show: Sink): Promise<void> {
  await headless(show, 'requirements', ['requirements', '--tf', '2.3', '--os', 'windows'], { HOME: process.env.HOME ?? '/tmp' });
  await headless(show, 'explain', ['explain', 'test/fixtures/logs/windows-tf23-cudart101.log'], { HOME: process.env.HOME ?? '/tmp' });
  await withLaptop(
    () => laptop(undefined, { pythonPath: TF23 }),
    async (machine) => {
      const m = { ...machine, env: { ...machine.env, SHELL: '/bin/bash', PATH: pathWithoutNvcc(machine.env.PATH) } };
      await headless(show, 'doctor', ['doctor', '--tf', '2.3'], m.env, m.globals);
      await headless(show, 'install --dry-run', ['install', '--tf', '2.3', '--dry-run'], m.env, m.globals);
      await headless(show, 'download cuda', ['download', 'cuda', '--version', '10.1', '--os', 'linux'], m.env, m.globals);
      await headless(show, 'download cudnn (gated)', ['download', 'cudnn', '--version', '8.0.4', '--cuda', '11.0', '--os', 'linux'], m.env, m.globals);
      // install fetches the runfile itself, as on a machine where download never ran.
      await rm(path.join(m.cache, path.basename(CUDA_101.runPath)));
      await headless(show, 'install --yes', ['install', '--tf', '2.3', '--yes'], m.env, m.globals);
      // Something deletes cuDNN's library from the toolkit: repair puts the copy right again.
      await rm(path.join(m.toolkit, 'lib64', 'libcudnn.so.7.6.5'));
      await headless(show, 'repair', ['repair', '--tf', '2.3', '--yes'], m.env, m.globals);
      await headless(show, 'rollback', ['rollback'], m.env, m.globals);
    },
  );
}

/** --verbose: the installer's own output lines under its step, on a laptop where nothing is installed yet. */
export async function verbose(show: Sink): Promise<void> {
  await withLaptop(
    () => laptop(undefined, { pythonPath: TF23 }),
    async (m) => headless(show, 'install --verbose', ['install', '--tf', '2.3', '--yes', '--verbose'], { ...m.env, SHELL: '/bin/bash' }, m.globals),
  );
}

/** cudawiz's own errors, as the Troubleshooting section quotes them. */
export async function errors(show: Sink): Promise<void> {
  const home = { HOME: process.env.HOME ?? '/tmp' };
  await headless(show, 'error: unknown TF version', ['requirements', '--tf', '2.99'], home);
  await headless(show, 'error: the wizard without a terminal', [], home);
  await withLaptop(
    () => laptop(),
    async (m) => {
      // An overlay whose checksum the served file cannot match: what a tampering mirror looks like.
      const wrong = path.join(m.home, 'wrong-sha.json');
      await writeFile(wrong, JSON.stringify({ cuda: [{ version: CUDA_101.version, installers: { linux: { sha256: 'e'.repeat(64) } } }] }));
      const globals = m.globals.map((g) => (g === m.overlay ? wrong : g));
      await headless(show, 'error: checksum mismatch', ['download', 'cuda', '--version', '10.1', '--os', 'linux'], m.env, globals);
      const bad = path.join(m.home, 'bad-overlay.json');
      await writeFile(bad, JSON.stringify({ cuda: [{ version: '13.9.0', installers: { linux: { sha256: 'not-hex' } } }] }));
      await headless(show, 'error: a bad overlay', ['requirements', '--tf', '2.3', '--catalog', bad], m.env);
    },
  );
}

