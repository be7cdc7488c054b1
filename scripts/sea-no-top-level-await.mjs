// A standalone executable runs one CommonJS script, and CommonJS has no top-level await; two
// packages under ink use it. This esbuild plugin (used by scripts/dist.mjs only) removes both:
// - ink's reconciler awaits its devtools and package.json only when DEV=true: dropped (the bundle
//   stubs react-devtools-core anyway);
// - yoga-layout awaits its WebAssembly module: instantiated synchronously instead, from the same
//   bytes, which Node allows on the main thread.
// Each rewrite checks that it matched, so an ink or yoga-layout upgrade fails the build loudly.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

function replaceExactly(src, from, to, file) {
  if (!src.includes(from)) throw new Error(`sea-no-top-level-await: "${from}" not found in ${file}; the package changed, update scripts/sea-no-top-level-await.mjs`);
  return src.replaceAll(from, to);
}

export const seaNoTopLevelAwait = {
  name: 'sea-no-top-level-await',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, async (args) => {
      let src = await readFile(args.path, 'utf8');
      src = replaceExactly(src, "await import('./devtools.js');", 'void 0;', args.path);
      src = replaceExactly(src, 'await loadPackageJson()', '{ name: undefined, version: undefined }', args.path);
      return { contents: src, loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, async (args) => {
      const dir = path.dirname(args.path);
      const binaries = await readFile(path.join(dir, '../binaries/yoga-wasm-base64-esm.js'), 'utf8');
      const wasm = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(binaries);
      if (!wasm) throw new Error(`sea-no-top-level-await: no embedded wasm in yoga-layout under ${dir}`);
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
  },
};
