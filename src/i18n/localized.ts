// The language every user-facing string is read in, and the tables that hold them.
// One language per run: main() sets it once from --lang / CUDAWIZ_LANG / the locale (English under --json,
// whose fields are the interface). Each area keeps its strings in its own table, src/i18n/<area>.ts:
//
//   export const doctorText = localized({
//     en: { driverTooOld: (have: string, need: string) => `Driver ${have} is older than ${need}` },
//     zh: { driverTooOld: (have, need) => `显卡驱动 ${have} 比所需的 ${need} 旧` },
//   });
//   doctorText.driverTooOld('418.1', '450.80.02')
//
// The zh table must have every key of the en one (the type says so), and strings with values are
// functions with typed parameters, so a translation cannot drop a value.
export type Lang = 'en' | 'zh';

let current: Lang = 'en';

export function setLang(lang: Lang): void {
  current = lang;
}

export function currentLang(): Lang {
  return current;
}

/**
 * How the values put into a message are shown (#37, words from files are data). A path or a manifest
 * field can hold a newline: in a plain line it would start a line that reads as cudawiz's own, so a
 * newline inside a value is written `\n` — never one of the message's own (those are in the templates,
 * or are the lines of another message of these tables, which is passed on as it is). `screen` (the Ink
 * wizard, which has no output edge of its own) also writes every other control character as an escape,
 * as the plain output edge does (src/redact.ts); `json` leaves values as they are (JSON escapes them).
 */
export type ValueStyle = 'plain' | 'screen' | 'json';
let valueStyle: ValueStyle = 'plain';

export function setValueStyle(style: ValueStyle): void {
  valueStyle = style;
}

// The multi-line messages these tables made (and their static multi-line strings): passed on whole.
const OWN_LIMIT = 4096;
const own = new Set<string>();
/** Marks a multi-line text as cudawiz's own lines (a list of commands it wrote), so a message that quotes it keeps its line breaks. */
export function ownLines<S extends string>(text: S): S {
  if (text.includes('\n')) {
    if (own.size >= OWN_LIMIT) own.clear();
    own.add(text);
  }
  return text;
}

// The output edge's colour marks (NUL, <, a secret, a code, >) pass through untouched.
const SCREEN_CONTROL = /\u0000<[0-9a-f]{12}\d+>|[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
function screenEscape(c: string): string {
  if (c.length > 1) return c;
  if (c === '\r') return '\\r';
  if (c === '\u001B') return '\\e';
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One value as a message shows it. */
export function shownValue(value: unknown): unknown {
  if (typeof value !== 'string' || valueStyle === 'json') return value;
  let v = value;
  if (v.includes('\n') && !own.has(v)) v = v.replace(/\r?\n/g, '\\n');
  if (valueStyle === 'screen') v = v.replace(SCREEN_CONTROL, screenEscape);
  return v;
}

function valuesShown<F extends (...args: unknown[]) => unknown>(fn: F): F {
  // `this` passes through: a table's method may read its own table (`this.summary`).
  return function (this: unknown, ...args: unknown[]) {
    const out = fn.apply(this, args.map(shownValue));
    return typeof out === 'string' ? ownLines(out) : out;
  } as F;
}

/** One table entry as a message uses it: a string is our own text, a function's values are escaped. */
const shownEntry = (v: unknown) => (typeof v === 'function' ? valuesShown(v as (...args: unknown[]) => unknown) : typeof v === 'string' ? ownLines(v) : v);

export function localized<T extends object>(tables: { en: T; zh: NoInfer<T> }): T {
  // Getters stay getters: a table may name another table's words, read when asked (not when loaded).
  const wrapped = (table: T) => {
    const out = {} as T;
    for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(table))) {
      if (d.get) {
        const get = d.get;
        Object.defineProperty(out, k, { enumerable: true, get() { return shownEntry(get.call(this)); } });
      } else Object.defineProperty(out, k, { enumerable: true, writable: true, value: shownEntry(d.value) });
    }
    return out;
  };
  const both = { en: wrapped(tables.en), zh: wrapped(tables.zh) };
  return new Proxy(tables.en, {
    get: (_target, key) => Reflect.get(both[current], key),
  });
}
