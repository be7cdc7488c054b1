// The source-side finder: string literals in src/ and components/ (outside src/i18n/) that hold an
// English sentence by the finder's rule (test/helpers/english-runs.ts). A user-facing one belongs
// in a string table; what is left must be internal (never printed) or written to a file.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { englishRuns } from './english-runs.js';

export interface EnglishLiteral {
  file: string;
  line: number;
  text: string;
}

const LITERAL = /(['"`])((?:\\.|(?!\1)[^\\])*?)\1/g;
/** Text between JSX tags (<Text>like this</Text>), which is no string literal. */
const JSX_TEXT = />([^<>{}]*[A-Za-z][^<>{}]*)(?=[<{])/g;

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return rel === 'src/i18n' ? [] : sourceFiles(root, rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

export function englishLiterals(root: string): EnglishLiteral[] {
  const found: EnglishLiteral[] = [];
  for (const file of [...sourceFiles(root, 'src'), ...sourceFiles(root, 'components')]) {
    readFileSync(path.join(root, file), 'utf8').split('\n').forEach((l, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(l) || /^\s*(import|export \{)[^;]*from /.test(l)) return;
      const code = l.replace(/\s\/\/ .*$/, '');
      const jsx = file.endsWith('.tsx') ? [...code.matchAll(JSX_TEXT)].map((m) => m[1]).filter((t) => englishRuns(t).length > 0) : [];
      for (const text of jsx) found.push({ file, line: i + 1, text });
      for (const m of code.matchAll(LITERAL)) {
        const text = m[2].replace(/\$\{[^}]*\}/g, ' X ').replace(/\\n/g, '\n');
        if (text.split('\n').some((t) => englishRuns(t).length > 0)) found.push({ file, line: i + 1, text: m[2] });
      }
    });
  }
  return found;
}
