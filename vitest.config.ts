import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // The Windows lane needs Wine: npm run test:windows (vitest.windows.config.ts).
    exclude: [...configDefaults.exclude, 'test/windows/**'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
