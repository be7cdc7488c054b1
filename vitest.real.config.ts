// `npm run test:real`: cudawiz on NVIDIA's real binaries as Debian 12 ships them (test/real/): the driver's
// user-space half without a kernel module and apt's CUDA 11.8, in private mount namespaces (unshare -m +
// overlayfs over /usr, /etc, /var, /dev), so nothing outside changes. It needs root, network once (the
// packages are cached, see test/real/packages.ts) and a Debian-family apt, so it stays out of `npm test`;
// .ci/run runs it as its own block. Its files are *.real.ts, which `npm test`'s *.test.ts never matches.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/real/**/*.real.ts'],
    globalSetup: ['test/real/setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 1_200_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
