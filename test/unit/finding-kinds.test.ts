// The finding-kind registry (#38): every kind the doctor makes has its entry, and what used to be written
// out by hand — the remedy table, the setup blockers, the stops that end a repair, the remedies' order, the
// consent protocol — is read from one place.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETUP_BLOCKERS, WHEEL_BLOCKERS } from '../../src/doctor/blockers.js';
import { FINDING_KINDS, kindOf, STOPS, type KindEntry, type RemedyId, type StopId } from '../../src/doctor/finding-kinds.js';
import { finding } from '../../src/doctor/finding.js';
import { stopsEverySetup } from '../../src/plan/choose.js';
import { BLOCKING_STOPS, REMEDIES, REMEDY_ORDER, REMEDY_TABLE } from '../../src/plan/remedies/index.js';
import { repoRoot } from '../helpers/cli.js';

async function sources(dir: string): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  for (const e of await readdir(path.join(repoRoot, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(rel)));
    else if (/\.tsx?$/.test(e.name)) out.push({ file: rel, text: await readFile(path.join(repoRoot, rel), 'utf8') });
  }
  return out;
}

describe('the finding-kind registry', () => {
  it("every id the doctor's checks make, literal or `kind:${detail}`, names a registered kind", async () => {
    const made = new Set<string>();
    for (const { text } of await sources('src/doctor')) {
      for (const m of text.matchAll(/finding\(\s*['`]([a-z][a-z-]*(?::[a-z][a-z-]*)?)/g)) made.add(m[1]);
      for (const m of text.matchAll(/id(?::\s*FindingId)?\s*=\s*`([a-z][a-z-]*):\$\{/g)) made.add(m[1]);
    }
    // The scan sees the checks: a handful of kinds at least, with details among them.
    expect(made.size).toBeGreaterThan(20);
    expect([...made].filter((id) => !kindOf(id))).toEqual([]);
  });

  it('the remedy table, both blocker lists and the blocking stops are read from it, as they were written by hand before', () => {
    expect(new Set(SETUP_BLOCKERS)).toEqual(new Set(['windows-native', 'gpu', 'driver', 'compute-capability', 'wsl']));
    expect(new Set(WHEEL_BLOCKERS)).toEqual(new Set([...SETUP_BLOCKERS, 'wsl:no-wsl-libcuda', 'wsl:windows-too-old']));
    expect(new Set(BLOCKING_STOPS)).toEqual(new Set(['driver', 'gpu', 'pip-pin', 'platform', 'package-manager']));
    expect(REMEDY_TABLE.length).toBe(Object.values(FINDING_KINDS).filter((e) => !('listed' in e.does)).length);
    expect(Object.keys(STOPS).every((s) => REMEDY_TABLE.some((r) => r.stop === s) || s === 'package-manager')).toBe(true);
  });

  it('the stops that end every setup are read from it: exactly the stops of the kinds every preflight checks, each also ending a repair', () => {
    const everySetup = (Object.keys(STOPS) as StopId[]).filter((s) => STOPS[s].blocksEverySetup);
    const ofPreflightKinds = new Set(Object.values(FINDING_KINDS as Record<string, KindEntry>).flatMap((e) => (e.blocksSetup && 'stop' in e.does ? [e.does.stop] : [])));
    // A kind every preflight checks that is a remedy or listed, not a stop, is a wrong entry: nothing would stop a repair at it.
    expect(Object.entries(FINDING_KINDS as Record<string, KindEntry>).filter(([, e]) => e.blocksSetup && !('stop' in e.does)).map(([k]) => k)).toEqual([]);
    expect(new Set(everySetup)).toEqual(ofPreflightKinds);
    expect(everySetup.filter((s) => !STOPS[s].blocksRepair)).toEqual([]);
    expect(new Set(everySetup)).toEqual(new Set(['driver', 'gpu', 'platform']));
    // What the wizard's setup reads: a driver, a GPU and a platform finding stop every setup; another framework's pin and a Python do not.
    const fails = ['driver', 'compute-capability', 'windows-native', 'pip-pin', 'python', 'load-order'].map((id) => finding(id as never, 'fail', id));
    expect(stopsEverySetup(fails, 'linux').map((f) => f.id)).toEqual(['driver', 'compute-capability', 'windows-native']);
  });

  it('every remedy a kind names has its record, and the records keep the order of dependence', () => {
    const named = new Set(Object.values(FINDING_KINDS).flatMap((e) => ('remedy' in e.does ? [e.does.remedy] : [])));
    for (const r of named) expect(REMEDIES[r as RemedyId], r).toBeDefined();
    expect(REMEDY_ORDER).toEqual(['settle-copy', 'package-manager', 'install-toolkit', 'redist-files', 'import-cudnn', 'load-order', 'wheel-loader-path']);
  });

  it('one consent protocol: the confirm question is asked once, in the consent step, and a yes is read by one saidYes beside NeedsInput', async () => {
    const all = await sources('src');
    expect(all.filter(({ text }) => text.includes("NeedsInput({ kind: 'confirm'")).map((s) => s.file)).toEqual([path.join('src', 'plan', 'steps', 'consent.ts')]);
    // The answer's reading: one regex (runner.ts's saidYes), which the consent step and a command's [y/N] prompt both call.
    expect(all.filter(({ text }) => /\/\^\(?y(\||\(es\))/.test(text)).map((s) => s.file)).toEqual([path.join('src', 'plan', 'runner.ts')]);
  });

  it('repair takes a route\'s steps by what they do, never by their ids', async () => {
    const remedies = await sources('src/plan/remedies');
    expect(remedies.filter(({ text }) => /\.id !== '(verify|preflight)'/.test(text)).map((s) => s.file)).toEqual([]);
  });

  it('what a run asks consent for is each step\'s own word (the plan event\'s changesMachine), never a list of step ids, anywhere', async () => {
    const all = [...(await sources('src')), ...(await sources('components'))];
    expect(all.filter(({ text }) => /\.id (!==|===) '(verify|preflight)'/.test(text)).map((s) => s.file)).toEqual([]);
    expect(all.find((s) => s.file === path.join('src', 'commands', 'plan-command.ts'))?.text).toMatch(/steps\.filter\(\(s\) => !s\.done && s\.changesMachine !== false\)/);
  });
});
