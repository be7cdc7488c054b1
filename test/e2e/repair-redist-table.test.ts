// A toolkit the redist route made is repaired through the remedy table like any other (#38): its missing
// or changed files are a doctor finding, and the redist repair step is that finding's remedy, followed by
// the proof a new shell sees — no second, table-less plan for this route.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/doctor/finding.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import type { NvidiaMirror } from '../helpers/mirror.js';
import { redistUser } from '../helpers/redist-user.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

const events = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunnerEvent);

describe('repair of a redist toolkit, through the remedy table', () => {
  it('a library gone from the toolkit: the doctor names the redist files, repair fetches that component again and proves it in a new shell', async () => {
    const m = await redistUser();
    mirror = m.mirror;
    const first = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'no', ...m.globals], { env: m.ownLoaderPath });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    await rm(path.join(m.toolkit, 'lib64/libcusparse.so.11.7.5.86'));

    const doctor = await m.run(['doctor', '--tf', '2.10', '--json', ...m.globals], { env: m.ownLoaderPath });
    const findings = (JSON.parse(doctor.stdout) as { findings: Finding[] }).findings;
    const files = findings.find((f) => f.id === `redist-files:${m.toolkit}`);
    expect(files, doctor.stdout).toMatchObject({ status: 'fail', evidence: ['lib64/libcusparse.so.11.7.5.86'] });
    expect(files!.fix).toContain('cudawiz repair --tf 2.10');

    const dry = await m.run(['repair', '--tf', '2.10', '--dry-run', '--json', '--configure-env', 'no', ...m.globals], { env: m.ownLoaderPath });
    const plan = events(dry.stdout).find((e) => e.type === 'plan') as Extract<RunnerEvent, { type: 'plan' }>;
    // No preflight or redist verify of the route's own: the table's remedy for the finding, then the new-shell proof.
    expect(plan.steps.filter((s) => !s.done).map((s) => s.id), dry.stdout).toEqual(['repair-cuda-redist', 'verify']);

    const r = await m.run(['repair', '--tf', '2.10', '--yes', '--json', '--configure-env', 'no', ...m.globals], { env: m.ownLoaderPath });
    const ran = events(r.stdout);
    expect(ran.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
    expect(ran.filter((e) => e.type === 'step-done').map((e) => (e as { id: string }).id)).toEqual(['repair-cuda-redist', 'verify']);
    const again = await m.run(['doctor', '--tf', '2.10', '--json', ...m.globals], { env: m.ownLoaderPath });
    expect((JSON.parse(again.stdout) as { findings: Finding[] }).findings.filter((f) => f.status === 'fail')).toEqual([]);
  });
});
