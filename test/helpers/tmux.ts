// The built CLI in a real terminal: tmux gives it a pseudo-terminal of a fixed size; we type with
// send-keys and read the screen with capture-pane. The pane's output is also piped (pipe-pane) into a
// file we watch, so a wait looks at the screen again when the program has written something, not on
// a timer: each look is a tmux process, and on a busy machine a timer's looks cost more than the wizard.
import { execFile } from 'node:child_process';
import { watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './tmp.js';

export interface Terminal {
  name: string;
  screen(): Promise<string>;
  /** The screen with its colour escape sequences. */
  coloredScreen(): Promise<string>;
  waitFor(expected: string | RegExp, timeoutMs?: number): Promise<string>;
  /** The screen once it differs from `before` (or `before` itself after `timeoutMs`). */
  waitForChange(before: string, timeoutMs?: number): Promise<string>;
  keys(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  /** The exit code, once the program has ended (remain-on-exit keeps the pane). */
  exitCode(timeoutMs?: number): Promise<number>;
  kill(): Promise<void>;
}

let counter = 0;

/** tmux's stdout without its final newline (as execa gives it); rejects on a non-zero exit unless `lenient`. */
function tmux(args: string[], lenient = false): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tmux', args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && !lenient) reject(new Error(`tmux ${args.join(' ')}: ${stderr || error.message}`));
      else resolve(String(stdout).replace(/\r?\n$/, ''));
    });
  });
}

/** At most this often a wait looks again while output keeps coming (a spinner). */
const MIN_LOOK_MS = 50;
/** A wait with no output in this long looks anyway (a redraw tmux makes on its own). */
const QUIET_LOOK_MS = 1_000;

export async function openTerminal(command: string[], options: { env?: Record<string, string>; cwd?: string; width?: number; height?: number } = {}): Promise<Terminal> {
  const name = `cudawiz-test-${process.pid}-${++counter}`;
  const socket = ['-L', name];
  const quote = (c: string) => `'${c.replace(/'/g, `'\\''`)}'`;
  // The pane's output lands here; each write is a change event.
  const output = path.join(await tempDir('cw-tmux-'), 'pane.out');
  writeFileSync(output, '');
  let writes = 0;
  let wake: (() => void) | undefined;
  const watcher = watch(output, () => {
    writes++;
    wake?.();
  });
  watcher.unref();
  // tmux's own -e loses to the shell's PATH set-up, so the environment goes on the command line via
  // env(1) — a clean one: the test runner's CI=true would make Ink hold every frame until exit.
  const envPrefix = Object.entries({ TERM: 'xterm-256color', ...options.env }).map(([k, v]) => quote(`${k}=${v}`));
  const quoted = ['env', '-i', ...envPrefix, ...command.map(quote)].join(' ');
  await tmux([...socket, '-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', String(options.width ?? 80), '-y', String(options.height ?? 24), ...(options.cwd ? ['-c', options.cwd] : []), `${quoted}; echo "[exit $?]"; sleep 3600`]);
  await tmux([...socket, 'pipe-pane', '-O', '-t', name, `cat >> ${quote(output)}`]);
  const screen = () => tmux([...socket, 'capture-pane', '-p', '-t', name], true);
  let lastLook = 0;
  const look = async () => {
    lastLook = Date.now();
    return screen();
  };
  /** Resolves once the pane has written since `seen` writes (or after `ms`), never sooner than MIN_LOOK_MS after the last look. */
  const outputAfter = async (seen: number, ms: number) => {
    if (writes === seen) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    }
    const early = lastLook + MIN_LOOK_MS - Date.now();
    if (early > 0) await new Promise((r) => setTimeout(r, early));
  };
  // Generous: npm test runs files side by side, and a screen waits for its turn at a core.
  const waitUntil = async (done: (s: string) => boolean, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = writes;
      const last = await look();
      if (done(last)) return last;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`The terminal never showed ${what}. Screen:\n${last}`);
      await outputAfter(seen, Math.min(left, QUIET_LOOK_MS));
    }
  };
  const waitFor = (expected: string | RegExp, timeoutMs = 30_000) =>
    waitUntil((s) => (typeof expected === 'string' ? s.includes(expected) : expected.test(s)), timeoutMs, String(expected));
  return {
    name,
    screen,
    coloredScreen: () => tmux([...socket, 'capture-pane', '-e', '-p', '-t', name], true),
    waitFor,
    waitForChange: (before, timeoutMs = 5_000) => waitUntil((s) => s !== before, timeoutMs, 'a change').catch(() => before),
    keys: async (...keys) => void (await tmux([...socket, 'send-keys', '-t', name, ...keys])),
    type: async (text) => void (await tmux([...socket, 'send-keys', '-t', name, '-l', text])),
    exitCode: async (timeoutMs) => {
      const s = await waitFor(/\[exit (\d+)\]/, timeoutMs);
      return Number(/\[exit (\d+)\]/.exec(s)![1]);
    },
    kill: async () => {
      watcher.close();
      await tmux([...socket, 'kill-server'], true);
    },
  };
}
