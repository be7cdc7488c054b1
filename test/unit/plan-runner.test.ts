import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CudawizError } from '../../src/errors.js';
import { initialRunnerState, reduceRunner, type RunnerEvent } from '../../src/plan/events.js';
import { NeedsInput, runPlan, type Step } from '../../src/plan/runner.js';
import { tempDir } from '../helpers/tmp.js';

interface Ctx {
  dir: string;
  archive?: string;
}
const exists = (p: string) => access(p).then(() => true, () => false);

/** A step that writes one file; done when the file is there — the shape of every real step. */
function fileStep(id: string, name: string): Step<Ctx> {
  return {
    id,
    title: `write ${name}`,
    check: async (ctx) => ({ done: await exists(path.join(ctx.dir, name)), reason: `${name} exists` }),
    run: async (ctx, io) => {
      io.progress({ bytes: 1, total: 2 });
      await writeFile(path.join(ctx.dir, name), id);
      io.log(`wrote ${name}`);
      return { summary: name };
    },
  };
}

async function collect(steps: Step<Ctx>[], ctx: Ctx, extra: Partial<Parameters<typeof runPlan>[2]> = {}) {
  const events: RunnerEvent[] = [];
  const result = await runPlan(steps, ctx, { signal: new AbortController().signal, onEvent: (e) => events.push(e), ...extra });
  return { events, result, state: events.reduce(reduceRunner, initialRunnerState) };
}

describe('the plan runner', () => {
  it('runs every step once, and a second run finds them all done', async () => {
    const dir = await tempDir();
    const steps = [fileStep('a', 'a.txt'), fileStep('b', 'b.txt')];
    const first = await collect(steps, { dir });
    expect(first.result).toEqual({ ok: true, exitCode: 0 });
    expect(first.state.steps.map((s) => s.status)).toEqual(['done', 'done']);
    expect(first.state.steps[0].log).toEqual(['wrote a.txt']);
    const second = await collect(steps, { dir });
    expect(second.events.filter((e) => e.type === 'step-start')).toHaveLength(0);
    expect(second.state.steps.map((s) => s.status)).toEqual(['skipped', 'skipped']);
  });

  it('a dry run reports the plan and writes nothing', async () => {
    const dir = await tempDir();
    const { result, state } = await collect([fileStep('a', 'a.txt')], { dir }, { dryRun: true });
    expect(result.exitCode).toBe(0);
    expect(state.steps[0].status).toBe('pending');
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
  });

  it('stops at the failing step with its fix, and leaves later steps pending', async () => {
    const dir = await tempDir();
    const failing: Step<Ctx> = {
      id: 'boom',
      title: 'install',
      check: async () => ({ done: false }),
      run: async () => {
        throw new CudawizError('installer exited 1', { fix: 'see the log', details: { logFile: '/tmp/x.log' } });
      },
    };
    const { result, state } = await collect([failing, fileStep('b', 'b.txt')], { dir });
    expect(result).toMatchObject({ ok: false, exitCode: 1 });
    expect(state.steps[0]).toMatchObject({ status: 'failed', error: { message: 'installer exited 1', fix: 'see the log', logFile: '/tmp/x.log' } });
    expect(state.steps[1].status).toBe('pending');
    expect(await exists(path.join(dir, 'b.txt'))).toBe(false);
  });

  it('headless, a step that needs the cuDNN archive stops with exit 3; in the wizard the answer resumes it', async () => {
    const dir = await tempDir();
    const needy: Step<Ctx> = {
      id: 'cudnn',
      title: 'obtain cuDNN',
      check: async () => ({ done: false }),
      run: async (ctx) => {
        if (!ctx.archive) throw new NeedsInput({ kind: 'cudnn-archive', file: 'cudnn.zip', page: 'https://example.invalid', downloadsDir: dir, why: 'login-gated' });
        await writeFile(path.join(ctx.dir, 'used.txt'), ctx.archive);
      },
      accept: (ctx, answer) => {
        ctx.archive = answer;
      },
    };
    const headless = await collect([needy], { dir });
    expect(headless.result.exitCode).toBe(3);
    expect(headless.state.steps[0].status).toBe('waiting');
    const asked: string[] = [];
    const wizard = await collect([needy], { dir }, { ask: async (need) => (asked.push(need.kind), '/downloads/cudnn.zip') });
    expect(asked).toEqual(['cudnn-archive']);
    expect(wizard.result.exitCode).toBe(0);
    expect(await readFile(path.join(dir, 'used.txt'), 'utf8')).toBe('/downloads/cudnn.zip');
  });

  it('Ctrl+C during a step ends the run with 130 and runs nothing after it', async () => {
    const dir = await tempDir();
    const controller = new AbortController();
    const waiting: Step<Ctx> = {
      id: 'download',
      title: 'download',
      check: async () => ({ done: false }),
      run: (_ctx, io) =>
        new Promise((_resolve, reject) => {
          io.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
          io.progress({ bytes: 10, total: 100 });
        }),
    };
    const events: RunnerEvent[] = [];
    const done = runPlan([waiting, fileStep('b', 'b.txt')], { dir }, {
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'progress') controller.abort();
      },
    });
    const result = await done;
    expect(result.exitCode).toBe(130);
    expect(events.at(-1)).toMatchObject({ type: 'result', exitCode: 130 });
    expect(await exists(path.join(dir, 'b.txt'))).toBe(false);
  });

  it('a check that knows its run would stop: the plan carries that stop once, later steps still to do are not reached, and a dry run exits 1', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'c.txt'), 'done before');
    const full = new CudawizError('Not enough disk space: the plan needs about 3.0 GiB, /cache has 1.0 GiB free.', { code: 'not-enough-space', fix: 'Free some space.' });
    const space: Step<Ctx> = { id: 'space', title: 'Check the disk', check: async () => ({ done: false, reason: `will stop: ${full.message}`, stop: full }), run: async () => { throw full; } };
    const steps = [fileStep('a', 'a.txt'), space, fileStep('b', 'b.txt'), fileStep('c', 'c.txt')];
    const dry = await collect(steps, { dir }, { dryRun: true });
    const plan = dry.events.find((e) => e.type === 'plan');
    expect(plan).toMatchObject({ stop: { step: 'space', title: 'Check the disk', code: 'not-enough-space', message: full.message, fix: 'Free some space.' } });
    // Before the stop: planned as usual; after it: not reached, unless already done.
    expect(plan?.type === 'plan' && plan.steps.map((s) => [s.id, Boolean(s.notReached)])).toEqual([['a', false], ['space', false], ['b', true], ['c', false]]);
    expect(dry.result).toMatchObject({ ok: false, exitCode: 1 });
    expect(dry.state.stop?.step).toBe('space');
    expect(dry.state.steps.find((s) => s.id === 'b')?.notReached).toBe(true);
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
    // The run (no dry run) stops at that step with that very error, as before.
    const run = await collect(steps, { dir });
    expect(run.result).toMatchObject({ ok: false, exitCode: 1, message: full.message });
    expect(run.events.find((e) => e.type === 'step-failed')).toMatchObject({ id: 'space', message: full.message, fix: 'Free some space.' });
    expect(await exists(path.join(dir, 'b.txt'))).toBe(false);
  });

  it('a plan that will not stop: no stop, nothing marked, and the dry run exits 0', async () => {
    const { events, result } = await collect([fileStep('a', 'a.txt')], { dir: await tempDir() }, { dryRun: true });
    const plan = events.find((e) => e.type === 'plan');
    expect(plan && 'stop' in plan).toBe(false);
    expect(result).toMatchObject({ ok: true, exitCode: 0 });
  });
});
