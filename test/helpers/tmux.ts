// The built CLI in a real terminal: tmux gives it a pseudo-terminal of a fixed size; we type with
// send-keys and read the screen with capture-pane, polling until the expected text is there.
import { execa } from 'execa';

export interface Terminal {
  name: string;
  screen(): Promise<string>;
  /** The screen with its colour escape sequences. */
  coloredScreen(): Promise<string>;
  waitFor(expected: string | RegExp, timeoutMs?: number): Promise<string>;
  keys(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  /** The exit code, once the program has ended (remain-on-exit keeps the pane). */
  exitCode(timeoutMs?: number): Promise<number>;
  kill(): Promise<void>;
}

let counter = 0;

export async function openTerminal(command: string[], options: { env?: Record<string, string>; cwd?: string; width?: number; height?: number } = {}): Promise<Terminal> {
  const name = `cudawiz-test-${process.pid}-${++counter}`;
  const socket = ['-L', name];
  const quote = (c: string) => `'${c.replace(/'/g, `'\\''`)}'`;
  // tmux's own -e loses to the shell's PATH set-up, so the environment goes on the command line via
  // env(1) — a clean one: the test runner's CI=true would make Ink hold every frame until exit.
  const envPrefix = Object.entries({ TERM: 'xterm-256color', ...options.env }).map(([k, v]) => quote(`${k}=${v}`));
  const quoted = ['env', '-i', ...envPrefix, ...command.map(quote)].join(' ');
  await execa('tmux', [...socket, '-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', String(options.width ?? 80), '-y', String(options.height ?? 24), ...(options.cwd ? ['-c', options.cwd] : []), `${quoted}; echo "[exit $?]"; sleep 3600`]);
  const screen = async () => (await execa('tmux', [...socket, 'capture-pane', '-p', '-t', name], { reject: false })).stdout;
  // Generous: npm test runs files side by side, and a screen waits for its turn at a core.
  const waitFor = async (expected: string | RegExp, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = await screen();
      if (typeof expected === 'string' ? last.includes(expected) : expected.test(last)) return last;
      // capture-pane has no change notification; each poll is a real round-trip to the tmux server.
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`The terminal never showed ${String(expected)}. Screen:\n${last}`);
  };
  return {
    name,
    screen,
    coloredScreen: async () => (await execa('tmux', [...socket, 'capture-pane', '-e', '-p', '-t', name], { reject: false })).stdout,
    waitFor,
    keys: async (...keys) => void (await execa('tmux', [...socket, 'send-keys', '-t', name, ...keys])),
    type: async (text) => void (await execa('tmux', [...socket, 'send-keys', '-t', name, '-l', text])),
    exitCode: async (timeoutMs) => {
      const s = await waitFor(/\[exit (\d+)\]/, timeoutMs);
      return Number(/\[exit (\d+)\]/.exec(s)![1]);
    },
    kill: async () => void (await execa('tmux', [...socket, 'kill-server'], { reject: false })),
  };
}
