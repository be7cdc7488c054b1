// #39's "done when", for every repair class (test/fixtures/repair-classes.ts), in one language: the
// built wizard in a real terminal at 80×24 — Repair it → its plan → Go ahead (every question answered
// yes) → the Done screen — then the doctor in a new shell, then `cudawiz rollback`, then the machine (its
// whole temp home: toolkits, sysroot, venv, conda env, rc files, cudawiz's own state) compared file by
// file with its copy from before. A class that stops says so on its plan, offers no Go ahead, and Quit
// leaves every file as it was. A Chinese walk also finds no English sentence on any screen.
// One suite per language, each in a file of its own in the slow lane (test/e2e/wizard-repair-walk*.test.ts):
// a walk per class costs a tmux terminal, the built CLI through a whole repair, the doctor and rollback.
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/doctor/finding.js';
import { en } from '../../src/i18n/en.js';
import { zh } from '../../src/i18n/zh.js';
import { REPAIR_CLASSES, type RepairClass } from '../fixtures/repair-classes.js';
import { hostOf, newShellEnv } from './broken-machine.js';
import { builtCli, runBuilt, runCli } from './cli.js';
import { treeDigest } from './cudnn-archive.js';
import { englishIn } from './english-runs.js';
import { downUntil } from './plan-scroll.js';
import { openTerminal, type Terminal } from './tmux.js';

export type Lang = 'en' | 'zh';
type Name = keyof typeof REPAIR_CLASSES;

/** The classes whose repair leaves the Python to the user (TF 2.11 takes 3.7–3.10; this host's is newer): exit 3. */
const PYTHON_LEFT = new Set<Name>(["cuDNN a minor too old over a cloud image's CUDA of TF's major"]);

const WORDS = {
  en: { repair: /❯ Repair it/, plan: /Go ahead\?|❯ Go back/, back: /❯ Go back/, quit: /❯ Quit/, keysInput: en.keysInput, keysDone: en.keysDone, chooseTf: /Which TensorFlow version\?/, newTerminal: 'Open a new terminal', no: /❯ No/, packageConsent: 'It replaces the stale copy through its package manager.' },
  zh: { repair: /❯ 修复/, plan: /开始吗？|❯ 返回/, back: /❯ 返回/, quit: /❯ 退出/, keysInput: zh.keysInput, keysDone: zh.keysDone, chooseTf: /选择 TensorFlow 版本/, newTerminal: '打开一个新的终端', no: /❯ 否/, packageConsent: '它通过包管理器换掉旧的那份。' },
} as const;

/** Every file (not folder) under the machine's home with its mode and sha256; Python's bytecode and cudawiz's download cache and logs aside. */
async function files(c: RepairClass): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await treeDigest(c.m.home)).filter(([k, v]) => !v.startsWith('dir:') && !/__pycache__|^cache\//.test(k)));
}

const flat = (s: string) => s.replace(/\s+/g, '');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let term: Terminal | undefined;

/** The wizard on the class's machine, walked from the scan to its end; the exit code and every screen on the way. */
async function walk(c: RepairClass, lang: Lang, stops: boolean): Promise<{ code: number; screens: string[] }> {
  const w = WORDS[lang];
  const t = (term = await openTerminal([process.execPath, builtCli, '--lang', lang, ...c.m.globals, ...c.flags], { env: c.env }));
  const screens: string[] = [];
  // -J: a row Ink drew wider than the terminal shows as the one line it is.
  const grab = async () => {
    const s = (await execa('tmux', ['-L', t.name, 'capture-pane', '-p', '-J', '-t', t.name], { reject: false })).stdout;
    screens.push(s);
    return s;
  };
  await t.waitFor(w.repair, 30_000);
  await grab();
  await t.keys('Enter');
  // No TensorFlow on the machine to repair for: the wizard asks which; typing the version jumps to it.
  if (w.chooseTf.test(await t.waitFor(new RegExp(`${w.plan.source}|${w.chooseTf.source}`), 60_000))) {
    await grab();
    await t.type(c.tf);
    await t.waitFor(new RegExp(`❯ TensorFlow ${escape(c.tf)}`));
    await t.keys('Enter');
  }
  const plan = await t.waitFor(w.plan, 60_000);
  await grab();
  if (stops) {
    // A plan that will stop: no Go ahead; Quit.
    expect(plan, plan).toMatch(w.back);
    await downUntil(t, w.quit, screens);
    await t.keys('Enter');
    return { code: await t.exitCode(), screens };
  }
  expect(plan, plan).not.toMatch(w.back);
  await t.keys('Enter');
  for (let i = 0; i < 10; i++) {
    const s = await t.waitFor(new RegExp(`${escape(w.keysInput)}|${escape(w.keysDone)}`), 120_000);
    await grab();
    if (s.includes(w.keysDone)) break;
    // A question. A package manager to run: no, as `repair --yes` does (a package manager is never implied,
    // and this machine's apt/conda are stand-ins); a file to write: yes. On once the question has gone.
    const pm = flat(s).includes(flat(w.packageConsent));
    const question = pm ? flat(w.packageConsent) : flat([...s.split('\n')].reverse().find((l) => /[?？]\s*$/.test(l)) ?? s);
    if (pm) await downUntil(t, w.no);
    await t.keys('Enter');
    for (const deadline = Date.now() + 15_000; flat(await t.screen()).includes(question) && Date.now() < deadline; );
  }
  const done = screens.at(-1)!;
  expect(flat(done), done).toContain(flat(w.newTerminal));
  await t.keys('q');
  return { code: await t.exitCode(), screens };
}

/** One test per repair class: the wizard in `lang` repairs it (or stops, nothing changed), the doctor passes in a new shell, rollback is exact. */
export function repairWalks(lang: Lang): void {
  let open: RepairClass | undefined;
  afterEach(async () => {
    await term?.kill();
    await open?.close();
    term = open = undefined;
  });

  describe(`the wizard repairs every class at 80×24 in ${lang === 'en' ? 'English' : 'Chinese'}, and rollback takes it all back`, () => {
    for (const [name, build] of Object.entries(REPAIR_CLASSES) as [Name, () => Promise<RepairClass>][]) {
      const stops = name.endsWith('(stop)');
      it(`${name}: ${stops ? 'the plan says where it stops, Quit changes nothing' : 'Repair it → Done → the doctor passes in a new shell → rollback, file by file'} (${lang})`, async () => {
        const c = (open = await build());
        const before = await files(c);
        const { code, screens } = await walk(c, lang, stops);
        await term?.kill();
        term = undefined;
        if (lang === 'zh') expect([...new Set(screens.flatMap((s) => englishIn(s)))], name).toEqual([]);
        if (stops) {
          expect(code).toBe(1);
          expect(await files(c)).toEqual(before);
          return;
        }
        expect(code, screens.at(-1)).toBe(PYTHON_LEFT.has(name) ? 3 : 0);
        // The doctor in a new bash that reads the user's rc file: nothing left failing for this TF (but the Python left to the user).
        const r = await runCli(['doctor', '--tf', c.tf, '--json', ...c.m.globals], { host: hostOf(c.m, await newShellEnv(c.m)) });
        const fails = (JSON.parse(r.stdout).findings as Finding[]).filter((f) => f.status === 'fail').map((f) => f.id);
        expect(fails, name).toEqual(PYTHON_LEFT.has(name) ? ['python'] : []);
        const undo = await runBuilt(['rollback', ...c.m.globals], { env: c.env });
        expect(undo.code, undo.stdout + undo.stderr).toBe(0);
        expect(await files(c), `${name} (${lang}) after rollback`).toEqual(before);
      }, 240_000);
    }
  });
}
