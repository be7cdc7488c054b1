// `npm test`: everything that runs on a fresh clone after `npm ci` and nothing else. The lanes that
// need more than that have folders and configs of their own, run by .ci/run after it provisions them:
// test/fleet (ansible-core: `npm run test:fleet`, vitest.fleet.config.ts), test/windows (Wine:
// `npm run test:windows`, vitest.windows.config.ts) and test/standalone (`npm run test:dist`, vitest.dist.config.ts).
// The costliest end-to-end files have a lane of their own (`npm run test:slow`, vitest.slow.config.ts),
// which needs nothing more than this one and which .ci/run runs right after it.
import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Most of the slow files wait on child processes (the built CLI, tmux, fixture installers, the loopback
// mirror), not on a core: twice as many forks as cores keeps the cores busy. Vitest's own default
// (cores − 1) ran one file at a time on a 2-core machine. Each file has its own temp homes, mirror
// port and tmux socket (test/helpers), so files side by side share nothing.
const forks = Math.min(8, 2 * os.availableParallelism());

/** The lane of its own (`npm run test:slow`): the files that cost the most CPU (`node scripts/test-cpu.mjs`). */
export const slowFiles = [
  'test/e2e/repair-classes.test.ts',
  'test/e2e/env-outside-home.test.ts',
  'test/e2e/bundle-install.test.ts',
  'test/e2e/install-redist.test.ts',
  'test/e2e/fs-faults.test.ts',
  // #38: TF 2.11 on the redist route under R470, run for real (a whole redist install in-process, ~6 s).
  'test/unit/plan-settled-write.test.ts',
  // #39: rollback's [y/N] before NVIDIA's uninstaller, answered in tmux both ways.
  'test/e2e/rollback-ask.test.ts',
  // #39's wizard walks, every repair class in a tmux terminal, English and Chinese (test/helpers/repair-walk.ts).
  'test/e2e/wizard-repair-walk.test.ts',
  'test/e2e/wizard-repair-walk-zh.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: [...configDefaults.exclude, 'test/fleet/**', 'test/windows/**', ...slowFiles],
    // Files side by side share the cores: a test that takes 30 s alone can take twice that beside three others.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: forks,
  },
});
