// The esbuild options both builds share: dist/cli.js (ESM, code-split so each command loads only
// what it needs) and the standalone executables' script (one CommonJS file, scripts/dist.mjs).
// The fixes for ink are the ones measured in shared/reference/toolchain.md (the fd-slicer one went with
// extract-zip: yauzl 3 carries its own fd-slicer, which allocates with Buffer.allocUnsafe).
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const stub = fileURLToPath(new URL('./devtools-stub.mjs', import.meta.url));

// zod compiles a parser per object schema on first use (`new Function`), which pays off only for many
// parses; the CLI parses the catalog once per run (and only for an overlay), so the bundle turns that
// off (`jitless`), which halves the catalog's parse time. The shim runs before any module that imports
// zod. (Sources import zod as a namespace, `import * as z from 'zod'`, which lets esbuild keep only
// what our schemas use: 104 KB instead of 463 KB with every locale for `import { z }`.)
const zodShim = fileURLToPath(new URL('./zod-jitless.mjs', import.meta.url));
const zodForCli = {
  name: 'zod-for-cli',
  setup(b) {
    b.onResolve({ filter: /^zod$/ }, (args) => (args.importer === zodShim ? undefined : { path: zodShim }));
  },
};

// The built-in catalog, parsed and validated now rather than on every run (src/catalog/prebuilt.ts):
// the loader is bundled on its own and run here, so an invalid asset fails the build with the
// loader's own message, and the CLI loads zod only for an overlay.
const prebuiltCatalog = {
  name: 'prebuilt-catalog',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]catalog[\\/]prebuilt\.ts$/ }, async () => {
      const loader = await build({
        absWorkingDir: root,
        entryPoints: ['src/catalog/load.ts'],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        write: false,
        logLevel: 'error',
      });
      const code = loader.outputFiles[0].text;
      const { builtinCatalog } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
      // A JSON string for JSON.parse: V8 reads that much faster than the same data as an object literal.
      const json = JSON.stringify(builtinCatalog());
      return { contents: `export const prebuiltCatalog = JSON.parse(${JSON.stringify(json)});`, loader: 'js' };
    });
  },
};

// yoga-layout (Ink's layout engine) gets its WebAssembly by fetch()ing a data: URL, and fetch loads
// Node's whole HTTP client (undici) first: ~25 ms before the wizard's first frame. It is given the
// same bytes instead, decoded from that URL at build time and instantiated synchronously (which Node
// allows on the main thread), so no top-level await is left either (a standalone executable runs
// CommonJS, which has none). The rewrite checks that it matched, so a yoga-layout upgrade fails loudly.
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, async (args) => {
      const dir = path.dirname(args.path);
      const [index, binaries] = await Promise.all([readFile(args.path, 'utf8'), readFile(path.join(dir, '../binaries/yoga-wasm-base64-esm.js'), 'utf8')]);
      const wasm = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(binaries);
      if (!wasm || !index.includes('wrapAssembly(await loadYoga())')) throw new Error(`yoga-without-fetch: yoga-layout under ${dir} changed; update scripts/bundle-options.mjs`);
      const contents = [
        "import loadYoga from '../binaries/yoga-wasm-base64-esm.js';",
        "import wrapAssembly from './wrapAssembly.js';",
        `const bytes = Buffer.from(${JSON.stringify(wasm[1])}, 'base64');`,
        'const module = { instantiateWasm(imports, receive) { const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports); receive(instance); return instance.exports; } };',
        'loadYoga(module);',
        'const Yoga = wrapAssembly(module);',
        'export default Yoga;',
        "export * from './generated/YGEnums.js';",
      ].join('\n');
      return { contents, loader: 'js', resolveDir: dir };
    });
    // The loader's own copy of the bytes is never read now: dropped, so the bundle holds them once.
    b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, async (args) => {
      const src = await readFile(args.path, 'utf8');
      const emptied = src.replace(/(data:application\/octet-stream;base64,)[A-Za-z0-9+/=]+/, '$1');
      if (emptied.length > src.length - 1000) throw new Error(`yoga-without-fetch: no embedded wasm in ${args.path}; update scripts/bundle-options.mjs`);
      return { contents: emptied, loader: 'js' };
    });
  },
};

export const version = pkg.version;

/** @returns {import('esbuild').BuildOptions} */
export function bundleOptions() {
  return {
    absWorkingDir: root,
    entryPoints: { cli: 'src/bin.ts' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    minify: true,
    sourcemap: false,
    alias: { 'react-devtools-core': stub },
    define: { 'process.env.NODE_ENV': '"production"', CUDAWIZ_VERSION: JSON.stringify(pkg.version) },
    plugins: [zodForCli, prebuiltCatalog, yogaWithoutFetch],
    logLevel: 'warning',
  };
}
