import { randomBytes } from 'node:crypto';

// Words from files, flags and the environment are data: before anything reaches a terminal, a log or
// JSON, credentials are masked (a `--mirror https://user:pass@host` or `alice:pass@host`, a token in a
// query), and control characters a file or flag carried are shown as escapes, never obeyed (an ANSI
// sequence that clears the screen or retitles the terminal, a carriage return that overwrites a line).

/** `scheme://user:pass@` → `scheme://***@`; `user:pass@host` without a scheme → `***@host`; `?token=…`/`&password=…` values → `***`. */
export function redactCredentials(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi, '$1***@')
    // No scheme (`--mirror alice:pass@host`): a name, a colon, a secret, an @ and a host, at the start of a word.
    .replace(/(^|[\s"'=(<>,[{])[^\s/?#@"'<>:=]+:[^\s/?#@"'<>]+@(?=[\w[])/g, '$1***@')
    .replace(/([?&](?:access_token|token|password|passwd|pass|secret|key|api_key|apikey|auth|sig|signature)=)[^&#\s"'<>]+/gi, '$1***');
}

// C0 controls but tab and newline (ESC included), DEL, C1 controls, and the bidirectional overrides that reorder shown text.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

function escapeOne(c: string): string {
  if (c === '\r') return '\\r';
  if (c === '\u001B') return '\\e';
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text safe to print: every control character shown as an escape (`\e`, `\r`, `\x07`, `\u202e`), but newlines and tabs. */
export function printable(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

/**
 * cudawiz's own colours, told from anything a file or flag carried: a mark with a secret of this process
 * stands for a colour until the output edge turns it into the real escape sequence.
 */
export interface ColourMarks {
  mark(code: number): string;
  pattern: RegExp;
}

export function colourMarks(): ColourMarks {
  const secret = randomBytes(6).toString('hex');
  return { mark: (code) => `\u0000<${secret}${code}>`, pattern: new RegExp(`\u0000<${secret}(\\d+)>`) };
}

/** What every printed message goes through once, at the output edge: credentials masked, control characters escaped, own colours drawn. */
export function forTerminal(text: string, colours?: ColourMarks): string {
  const clean = redactCredentials(text);
  if (!colours) return printable(clean);
  // split() with one group: text, code, text, code, …, text.
  return clean.split(colours.pattern).map((part, i) => (i % 2 === 1 ? `\u001B[${part}m` : printable(part))).join('');
}

// JSON.stringify writes C0 controls as \u00XX itself; DEL, C1 controls and bidi overrides it leaves raw.
const JSON_RAW_CONTROL = /[\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** JSON text as printed: credentials masked, and every control character a \uXXXX escape (the same value to a parser). */
export function forJson(json: string): string {
  return redactCredentials(json).replace(JSON_RAW_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
