// `npm test`: everything that runs on a fresh clone after `npm ci` and nothing else. The lanes that
// need more than that have folders and configs of their own, run by .ci/run after it provisions them:
// test/fleet (ansible-core: `npm run test:fleet`, vitest.fleet.config.ts), test/windows (Wine:
// `npm run test:windows`, vitest.windows.config.ts) and test/standalone (`npm run test:dist`, vitest.dist.config.ts).
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: [...configDefaults.exclude, 'test/fleet/**', 'test/windows/**'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
