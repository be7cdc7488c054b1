// Bundles the CLI into one ESM file (dist/cli.js). The three fixes are the ones measured in
// shared/reference/toolchain.md: stub react-devtools-core, define `require`, and silence `new Buffer`.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const stub = fileURLToPath(new URL('./devtools-stub.mjs', import.meta.url));

const bufferFix = {
  name: 'buffer-alloc',
  setup(b) {
    b.onLoad({ filter: /fd-slicer[\\/]index\.js$/ }, async (args) => {
      const src = await readFile(args.path, 'utf8');
      return { contents: src.replace(/new Buffer\(/g, 'Buffer.alloc('), loader: 'js' };
    });
  },
};

await build({
  entryPoints: ['src/cli.tsx'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  sourcemap: false,
  splitting: false,
  alias: { 'react-devtools-core': stub },
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cwCreateRequire } from 'node:module'; const require = __cwCreateRequire(import.meta.url);",
  },
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [bufferFix],
  logLevel: 'warning',
});
