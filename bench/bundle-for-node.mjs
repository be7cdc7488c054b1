// One TypeScript entry bundled into one .mjs that a plain `node` runs (for child-process fixtures
// and benchmarks): ESM with a `require` for yauzl and friends, as scripts/build.mjs does.
import { build } from 'esbuild';

/** @param {string} entry @param {string} outfile @returns {Promise<string>} */
export async function bundleForNode(entry, outfile) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'error',
  });
  return outfile;
}
