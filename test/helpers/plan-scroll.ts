// A plan taller than the terminal scrolls (components/PlanScreen.tsx): ↓ reads on down the plan, then
// moves to the answers. Presses ↓ until what is looked for is on the screen, each press waiting for
// the next frame (every look at the pane is a tmux process, so the loop paces itself).
import type { Terminal } from './tmux.js';

/** `seen`, when given, gets every screen on the way (a tall plan's rows are on one of them). */
export async function downUntil(t: Terminal, expected: RegExp, seen?: string[], presses = 60): Promise<string> {
  let screen = await t.screen();
  seen?.push(screen);
  for (let i = 0; i < presses && !expected.test(screen); i++) {
    const before = screen;
    await t.keys('Down');
    for (const deadline = Date.now() + 5_000; (screen = await t.screen()) === before && Date.now() < deadline; );
    seen?.push(screen);
  }
  if (!expected.test(screen)) throw new Error(`${presses} presses of ↓ never showed ${String(expected)}. Screen:\n${screen}`);
  return screen;
}
