// The TF version list's state, outside React: which row has the focus, which rows show, and what the
// user has typed so far — typing "2.3" jumps to TensorFlow 2.3 instead of 18 presses of ↓.
import { majorMinor } from '../version.js';

export interface VersionListState {
  focus: number;
  /** The first row shown. */
  top: number;
  /** What was typed since the last jump that missed ("2.", then "2.3"). */
  typed: string;
}

export const startList = (): VersionListState => ({ focus: 0, top: 0, typed: '' });

/** Focus on row `to` (kept inside the list), scrolling just enough to show it. */
export function focusRow(s: VersionListState, to: number, count: number, visible: number): VersionListState {
  const focus = Math.max(0, Math.min(count - 1, to));
  const top = focus < s.top ? focus : focus >= s.top + visible ? focus - visible + 1 : s.top;
  return { focus, top: Math.max(0, Math.min(top, Math.max(0, count - visible))), typed: '' };
}

/** The row whose version the typed text names: "2.3" is TensorFlow 2.3 itself before 2.30; else the first that starts with it. */
function rowFor(versions: readonly string[], typed: string): number {
  const exact = versions.findIndex((v) => v === typed || majorMinor(v) === typed);
  return exact >= 0 ? exact : versions.findIndex((v) => v.startsWith(typed));
}

/** A digit or a dot typed: jump to the version it names so far; a miss starts over from that key. */
export function typeKey(s: VersionListState, key: string, versions: readonly string[], visible: number): VersionListState {
  for (const typed of [s.typed + key, key]) {
    const row = rowFor(versions, typed);
    if (row >= 0) return { ...focusRow(s, row, versions.length, visible), typed };
  }
  return { ...s, typed: '' };
}
