// Bundles the CLI for npm: dist/cli.js (the bin) and dist/chunks/. The program is ESM with code
// splitting (dist/chunks/cli.js + one chunk per command and per heavy dependency), so each command
// loads only its own modules; the bin in front of it is a few lines of CommonJS that answer
// `--version` before Node's ES module loader even starts (bench/startup.mjs measures both).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-options.mjs';

const dist = new URL('../dist/', import.meta.url);
const options = bundleOptions();

await rm(new URL('chunks', dist), { recursive: true, force: true });
await build({
  ...options,
  entryPoints: { 'chunks/cli': 'src/cli.tsx' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  splitting: true,
  // Chunks from CommonJS packages (signal-exit, fs-extra, yauzl) call `require`.
  banner: { js: "import { createRequire as __cwCreateRequire } from 'node:module'; const require = __cwCreateRequire(import.meta.url);" },
});

// The bin: src/bin.ts, with its import of ./cli.js left as a real import() of the chunk.
await build({
  ...options,
  entryPoints: ['src/bin.ts'],
  outfile: 'dist/cli.js',
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  plugins: [
    ...options.plugins,
    { name: 'program-chunk', setup: (b) => b.onResolve({ filter: /^\.\/cli\.js$/ }, () => ({ path: './chunks/cli.js', external: true })) },
  ],
});
const bin = await readFile(new URL('cli.js', dist), 'utf8');
if (!bin.includes('import("./chunks/cli.js")')) throw new Error('dist/cli.js must load the program with import("./chunks/cli.js")');

// The package is "type": "module"; these mark the bin as CommonJS and the chunks as ESM.
await writeFile(new URL('package.json', dist), '{ "type": "commonjs" }\n');
await mkdir(new URL('chunks/', dist), { recursive: true });
await writeFile(new URL('chunks/package.json', dist), '{ "type": "module" }\n');
