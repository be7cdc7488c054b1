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
