import { EventEmitter } from 'node:events';
import type { ReactElement } from 'react';
import { render } from 'ink';

// Waiting on Ink frames instead of sleeping: poll lastFrame() across event-loop turns until the
// expected text shows (toolchain.md: keys written before Ink re-attaches input are dropped).
export async function waitForFrame(lastFrame: () => string | undefined, expected: string | RegExp, turns = 2000): Promise<string> {
  for (let i = 0; i < turns; i++) {
    const frame = lastFrame() ?? '';
    if (typeof expected === 'string' ? frame.includes(expected) : expected.test(frame)) {
      // Ink re-attaches its input handlers a few turns after the frame that shows a change.
      for (let j = 0; j < 10; j++) await new Promise((r) => setImmediate(r));
      return frame;
    }
    await new Promise((r) => setImmediate(r));
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`Frame never showed ${String(expected)}. Last frame:\n${lastFrame() ?? ''}`);
}

export const KEY = { up: '\u001B[A', down: '\u001B[B', enter: '\r', esc: '\u001B', ctrlC: '\u0003' } as const;

/** One key per write, then wait for the frame that proves Ink took it. */
export async function press(stdin: { write(data: string): void }, key: string, lastFrame: () => string | undefined, expected: string | RegExp): Promise<string> {
  stdin.write(key);
  return waitForFrame(lastFrame, expected);
}

/** A stand-in terminal of a real size (ink-testing-library's is 100 columns wide): Ink draws its last frame here. */
export class Terminal extends EventEmitter {
  last = '';
  constructor(readonly columns = 80, readonly rows = 24) {
    super();
  }
  write = (frame: string) => void (this.last = frame);
}

/** Keys typed into a stand-in terminal. */
export class Keys extends EventEmitter {
  isTTY = true;
  data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** `tree` drawn by Ink into an 80×24 stand-in terminal: its last frame, its keys, and unmount. */
export function renderAt80x24(tree: ReactElement): { frame: () => string; stdin: Keys; unmount: () => void } {
  const stdout = new Terminal();
  const stdin = new Keys();
  const ui = render(tree, { stdout: stdout as never, stdin: stdin as never, debug: true, exitOnCtrlC: false, patchConsole: false });
  return { frame: () => stdout.last, stdin, unmount: ui.unmount };
}
