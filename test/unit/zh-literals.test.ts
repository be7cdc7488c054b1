// The source side of "no English only": every string literal in src/ and components/ outside the
// string tables (src/i18n/) that holds an English sentence by the finder's rule must be one of the
// few below, each internal or written to a file as it is. A new message written inline fails here
// until it goes through a table with its Chinese.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { englishLiterals } from '../helpers/english-literals.js';
import { tempDir } from '../helpers/tmp.js';

/** [file, a part of the literal, why it stays English]. */
const KEPT: [string, string, string][] = [
  ['src/wheels/fix-plan.ts', '# >>> cudawiz: TensorFlow', "the marker written into the venv's activate script: undo looks for these bytes"],
  ['src/wheels/venv-loader.ts', "TensorFlow's pip-installed CUDA libraries, loaded when", "the first line of the venv's loader .pth file cudawiz writes: a mark for whoever opens that file, never printed"],
  ['src/wheels/facts.ts', 'import json, site, sys', 'Python source run by the probe'],
  ['src/probe/python.ts', 'import json, os, struct, sys', 'Python source run by the probe'],
  ['src/probe/python.ts', 'from importlib import metadata', 'Python source run by the probe'],
  ['src/probe/python.ts', 'for name in ("tensorflow"', 'Python source run by the probe'],
  ['src/probe/python.ts', 'for name in sorted(os.listdir(base))', 'Python source run by the probe'],
  ['src/probe/python.ts', 'if os.path.isdir(lib) and lib not in libs', 'Python source run by the probe'],
  ['src/verify/tensorflow.ts', 'import json, os, sys', 'Python source run by verify'],
  ['src/verify/tensorflow.ts', 'import tensorflow as tf', 'Python source run by verify'],
  ['src/verify/tensorflow.ts', "print(json.dumps({'imported'", 'Python source run by verify'],
  ['src/probe/resolution.ts', 'toolkit (not on the search path)', "a --json id of where a library was found; the doctor's text says it in the run's language"],
  ['src/probe/types.ts', 'toolkit (not on the search path)', 'the same --json id, in its type'],
  ['src/wizard/lazy-services.ts', 'the wizard asked for its services before its scan finished', 'a programming error no user can reach'],
  ...['cannot open shared object', 'No devices were found', 'satisfies the requirement', 'has been removed', 'no versions of'].map(
    (part): [string, string, string] => ['src/doctor/explain-input.ts', part, "a word of the log's own that explain's streaming reader looks for, never printed"],
  ),
];

const kept = (f: { file: string; text: string }) => KEPT.some(([file, part]) => f.file === file && f.text.includes(part));

describe('English string literals outside the string tables', () => {
  it('are only the kept ones, each still there', () => {
    const found = englishLiterals(repoRoot);
    expect(found.filter((f) => !kept(f)).map((f) => `${f.file}:${f.line}: ${f.text}`)).toEqual([]);
    expect(KEPT.filter(([file, part]) => !found.some((f) => f.file === file && f.text.includes(part))).map(([file, part]) => `${file}: ${part}`)).toEqual([]);
  });

  it('the finder sees a message written inline (in a literal or between JSX tags), and not one that goes through a table or names a command', async () => {
    const root = await tempDir('cw-literals-');
    await mkdir(path.join(root, 'src', 'i18n'), { recursive: true });
    await mkdir(path.join(root, 'components'));
    await writeFile(path.join(root, 'src', 'i18n', 'x.ts'), "export const t = { a: 'this is in a table' };\n");
    await writeFile(
      path.join(root, 'src', 'step.ts'),
      [
        "// a comment with plenty of english words in it",
        "throw new CudawizError(`The toolkit at ${dir} is not complete`, { fix: t.a });",
        "const cmd = 'cudawiz install --tf 2.3 --yes';",
        "const id = 'library:cudart';",
      ].join('\n'),
    );
    await writeFile(path.join(root, 'components', 'Screen.tsx'), ['const a = <Text>{t.title}</Text>;', 'const b = <Text dimColor>press any key to go on</Text>;'].join('\n'));
    expect(englishLiterals(root).map((f) => `${f.file}:${f.line}`)).toEqual(['src/step.ts:2', 'components/Screen.tsx:2']);
  });
});
