// `npm run test:windows`: the built CLI on Windows node.exe under Wine (test/windows/, reference/wine.md).
// Kept out of `npm test`: a fresh machine has no Wine; .ci/run installs it and runs this lane.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/windows/**/*.test.ts'],
    globalSetup: ['test/windows/setup/global.ts'],
    // A story is several full installs at 0.3–1 s of Wine start-up per process; on a loaded 2-core machine one takes minutes.
    testTimeout: 300_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Each story runs several Wine processes at once (wineserver, node.exe, its children): two at a time fill two cores.
    maxWorkers: 2,
  },
});
