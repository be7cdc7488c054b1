// Bundles the CLI for npm: dist/cli.js (the bin) and dist/chunks/. The program is ESM with code
// splitting (dist/chunks/cli.js + one chunk per command and per heavy dependency), so each command
// loads only its own modules; the bin in front of it is a few lines of CommonJS that answer
// `--version` before Node's ES module loader even starts, and run `requirements` from one CommonJS
// file of its own (dist/chunks/requirements.cjs). bench/startup.mjs measures all three.
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
  // Chunks from CommonJS packages (signal-exit, yauzl) call `require`.
  banner: { js: "import { createRequire as __cwCreateRequire } from 'node:module'; const require = __cwCreateRequire(import.meta.url);" },
});

// main() for `requirements` without an overlay, as one CommonJS file: the modules that path loads
// (the host, the command, the prebuilt catalog) are bundled in; every other lazily loaded module
// (the other commands, the wizard, execa, the overlay loader) is left out, and a stub that fails
// loudly stands in for it. src/bin.ts sends only that path here; test/e2e/startup.test.ts holds it to
// the full program's answers.
const REQUIREMENTS_PATH = new Set(['./host.js', '../commands/requirements.js', './cli/catalog.js']);
const requirementsOnly = {
  name: 'requirements-only',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && !REQUIREMENTS_PATH.has(args.path) ? { path: args.path, namespace: 'not-in-requirements' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'not-in-requirements' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`dist/chunks/requirements.cjs was built without ${args.path}; src/bin.ts must send this run to dist/chunks/cli.js (scripts/build.mjs)`)});`,
      loader: 'js',
    }));
  },
};
await build({
  ...options,
  entryPoints: ['src/cli.tsx'],
  outfile: 'dist/chunks/requirements.cjs',
  format: 'cjs',
  plugins: [...options.plugins, requirementsOnly],
});

// The bin: src/bin.ts, with its import('./cli.js') left as a real import() of the program's chunk,
// and its require('./cli.js') pointed at the requirements file.
await build({
  ...options,
  entryPoints: ['src/bin.ts'],
  outfile: 'dist/cli.js',
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  plugins: [
    ...options.plugins,
    {
      name: 'program-files',
      setup: (b) =>
        b.onResolve({ filter: /^\.\/cli\.js$/ }, (args) => ({ path: args.kind === 'require-call' ? './chunks/requirements.cjs' : './chunks/cli.js', external: true })),
    },
  ],
});
const bin = await readFile(new URL('cli.js', dist), 'utf8');
if (!bin.includes('import("./chunks/cli.js")')) throw new Error('dist/cli.js must load the program with import("./chunks/cli.js")');
if (!bin.includes('require("./chunks/requirements.cjs")')) throw new Error('dist/cli.js must load `requirements` with require("./chunks/requirements.cjs")');

// The package is "type": "module"; these mark the bin as CommonJS and the chunks as ESM.
await writeFile(new URL('package.json', dist), '{ "type": "commonjs" }\n');
await mkdir(new URL('chunks/', dist), { recursive: true });
await writeFile(new URL('chunks/package.json', dist), '{ "type": "module" }\n');
