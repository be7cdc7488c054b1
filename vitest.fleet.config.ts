// `npm run test:fleet`: the Ansible fleet example run end to end (test/fleet/). It needs
// `ansible-playbook` (Debian's ansible-core), which a fresh machine lacks, so it stays out of
// `npm test`; .ci/run installs ansible-core and runs this lane after `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/fleet/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
