// `npm run test:windows`: the built CLI on Windows node.exe under Wine (test/windows/, reference/wine.md).
// Kept out of `npm test`: a fresh machine has no Wine; .ci/run installs it and runs this lane.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/windows/**/*.test.ts'],
    globalSetup: ['test/windows/setup/global.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Each story runs several Wine processes at once (wineserver, node.exe, its children): two at a time fill two cores.
    maxWorkers: 2,
  },
});
