// `npm run test:slow`: the end-to-end files that cost the most CPU — each runs the built CLI through
// whole installs and repairs, many times, on fixture machines. They run in CI (.ci/run, right after
// `npm test`) and need nothing more than `npm test` does; they are kept out of it so that `npm test`
// stays within 8 minutes on a 2-core machine (measure with `node scripts/test-cpu.mjs`).
import { defineConfig } from 'vitest/config';
import base, { slowFiles } from './vitest.config.js';

export default defineConfig({
  test: {
    ...base.test,
    include: slowFiles,
    exclude: [],
  },
});
