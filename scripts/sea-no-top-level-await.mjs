// A standalone executable runs one CommonJS script, and CommonJS has no top-level await; two
// packages under ink use it. yoga-layout's is removed for every build (scripts/bundle-options.mjs);
// this esbuild plugin (used by scripts/dist.mjs only) removes ink's: its reconciler awaits its
// devtools and package.json only when DEV=true, so both are dropped (the bundle stubs
// react-devtools-core anyway). Each rewrite checks that it matched, so an ink upgrade fails loudly.
import { readFile } from 'node:fs/promises';

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
  },
};
