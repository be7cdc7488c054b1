// `npm run test:dist`: the standalone executables, built first by `npm run dist` (which fetches
// postject and Node's Windows binary from the npm registry, so it is kept out of `npm test`).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/standalone/**/*.dist-test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
