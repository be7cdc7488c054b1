// Screen 3: exactly what will happen, what is skipped as already done, and a confirm — or, when the
// preview says the plan will stop (plan/will-stop.ts), that stop and its fix instead, with no "Go ahead".
// Lines wrap, never inside a word (a path stays whole) and a command to paste gets rows of its own
// (broken only at a space, with the shell's " \" continuation). A plan taller than the screen scrolls:
// ↓ reads on down the plan and then to the answers, ↑ goes back up; a line says what is above/below.
import figures from 'figures';
import { Box, Text, useInput, useStdout } from 'ink';
import { useState } from 'react';
import { stepsText } from '../src/i18n/steps.js';
import { wizardText } from '../src/i18n/wizard.js';
import type { RunnerState, StepState } from '../src/plan/events.js';
import { STATUS_LOOK, statusSymbol, type Status } from '../src/status.js';
import { displayWidth, scrollTo, splitCommand, terminalRows, wrapCommand, wrapWords } from '../src/wizard/fit-rows.js';
import { KeyHints } from './KeyHints.js';
import { useUi } from './UiContext.js';

/** One terminal row of the plan: the status mark on a line's first row, the indent on the others. */
interface Row {
  text: string;
  lead: number;
  mark?: { symbol: string; color?: string };
  bold?: boolean;
}

/** A line's rows: its words wrapped, then a command it ends in on rows of its own. */
function lineRows(text: string, columns: number, lead: number, mark?: Row['mark'], bold?: boolean): Row[] {
  // A text of several lines (a stop's fixes, then "Nothing was changed."): each wraps on its own at the same indent, the mark on the first.
  const [first, ...more] = text.split('\n');
  if (more.length) return [...lineRows(first, columns, lead, mark, bold), ...more.flatMap((line) => lineRows(line, columns, lead, undefined, bold))];
  const split = splitCommand(text);
  const words = split ? (split.words ? wrapWords(split.words, columns, lead) : []) : wrapWords(text, columns, lead);
  const rows = [...words];
  // The command goes on after the words where it fits whole; else on rows of its own.
  const end = rows.at(-1);
  if (split && end !== undefined && displayWidth(`${end} ${split.command}`) <= columns - lead) rows[rows.length - 1] = `${end} ${split.command}`;
  else if (split) rows.push(...wrapCommand(split.command, columns, lead));
  return rows.map((r, i) => ({ text: r, lead, ...(i === 0 && mark ? { mark } : {}), ...(bold ? { bold } : {}) }));
}

const rowsTall = (rows: readonly Row[], columns: number) => rows.reduce((n, r) => n + terminalRows([r.text], columns, r.lead), 0);

function PlanRow({ row, columns }: { row: Row; columns: number }) {
  // As wide as the row needs: a word wider than the terminal is folded by the terminal, never broken by a newline.
  const width = Math.max(columns, row.lead + displayWidth(row.text));
  return (
    <Box width={width} flexShrink={0}>
      <Text>
        {row.mark ? <Text color={row.mark.color}>{row.mark.symbol}</Text> : null}
        {' '.repeat(row.mark ? row.lead - displayWidth(row.mark.symbol) : row.lead)}
        {row.bold ? <Text bold>{row.text}</Text> : row.text}
      </Text>
    </Box>
  );
}

export function PlanScreen({ tf, preview, onConfirm, onBack, onQuit }: { tf?: string; preview: RunnerState; onConfirm(): void; onBack(): void; onQuit(): void }) {
  const { t, unicode } = useUi();
  const { stdout } = useStdout();
  const columns = stdout.columns || 80;
  const stop = preview.stop;
  const mark = (status: Status) => ({ symbol: statusSymbol(status, unicode), color: STATUS_LOOK[status].ink });
  const markLead = (status: Status) => displayWidth(statusSymbol(status, unicode)) + 1;
  const aside = (s: StepState) => (s.status === 'skipped' ? t.planDone(s.reason) : `${s.notReached ? t.planNotReached : ''}${s.reason ? ` — ${s.reason}` : ''}`);
  const stepRows = preview.steps.flatMap((s, i) => {
    const status: Status = s.status === 'skipped' || s.notReached ? 'skip' : s.id === stop?.step ? 'fail' : 'info';
    return lineRows(`${i + 1}. ${s.title}${aside(s)}`, columns, markLead(status), mark(status));
  });
  // The dry run that found the stop ends "not ok" too; the stop itself is what is said.
  const failure = !stop && preview.result && !preview.result.ok ? preview.result.message ?? '' : undefined;
  const failureRows = failure !== undefined ? lineRows(failure, columns, markLead('fail'), mark('fail')) : [];
  const stopRows = stop ? lineRows(stepsText.willStopAt(stop.title, stop.message), columns, markLead('fail'), mark('fail'), true) : [];
  const fixRows = stop?.fix ? lineRows(stop.fix, columns, 4, { symbol: '  →' }) : [];
  const options = stop
    ? [
        { label: t.planBack, value: 'back' },
        { label: wizardText.quit, value: 'quit' },
      ]
    : [
        { label: t.yes, value: 'yes' },
        { label: t.no, value: 'no' },
      ];
  // Rows besides the steps: the wizard's title, this title, the failure (or the gap, the stop and its
  // fix), the gap and the question (none over a stop), the answers, the gap and the key hints, and the
  // row Ink's cursor ends on.
  const others =
    1 +
    terminalRows([t.planTitle(tf ?? '')], columns) +
    (stop ? 1 + rowsTall(stopRows, columns) + rowsTall(fixRows, columns) : rowsTall(failureRows, columns)) +
    1 +
    (stop ? 0 : terminalRows([t.planConfirm], columns)) +
    options.length +
    3;
  const room = stdout.rows ? stdout.rows - others : Infinity;
  const scrolls = rowsTall(stepRows, columns) > room;
  // The step rows on screen: one row is the line that says what is above and below.
  const visible = scrolls ? Math.max(1, room - 1) : stepRows.length;
  const [top, setTop] = useState(0);
  const [focus, setFocus] = useState(0);
  const last = scrolls ? Math.max(0, stepRows.length - visible) : 0;
  useInput((_input, key) => {
    if (key.escape) onBack();
    else if (key.downArrow) {
      if (top < last) setTop((p) => scrollTo(p, 1, stepRows.length, visible));
      else setFocus((f) => Math.min(options.length - 1, f + 1));
    } else if (key.upArrow) {
      if (focus > 0) setFocus((f) => f - 1);
      else setTop((p) => scrollTo(p, -1, stepRows.length, visible));
    } else if (key.pageDown) setTop((p) => scrollTo(p, visible, stepRows.length, visible));
    else if (key.pageUp) setTop((p) => scrollTo(p, -visible, stepRows.length, visible));
    else if (key.return) {
      const v = options[focus]?.value;
      if (v === 'yes') onConfirm();
      else if (v === 'quit') onQuit();
      else onBack();
    }
  });
  // A row that the terminal folds takes more than one: fill the window by terminal rows.
  const shown: Row[] = [];
  let used = 0;
  for (const r of stepRows.slice(scrolls ? top : 0)) {
    const tall = rowsTall([r], columns);
    if (scrolls && shown.length > 0 && used + tall > visible) break;
    shown.push(r);
    used += tall;
  }
  const above = scrolls ? top : 0;
  const below = stepRows.length - above - shown.length;
  return (
    <Box flexDirection="column">
      <Text bold>{t.planTitle(tf ?? '')}</Text>
      {shown.map((r, i) => (
        <PlanRow key={above + i} row={r} columns={columns} />
      ))}
      {scrolls ? <Text dimColor>{t.planMore(above, below)}</Text> : null}
      {failureRows.map((r, i) => (
        <PlanRow key={`f${i}`} row={r} columns={columns} />
      ))}
      {stop ? (
        <Box marginTop={1} flexDirection="column">
          {[...stopRows, ...fixRows].map((r, i) => (
            <PlanRow key={`s${i}`} row={r} columns={columns} />
          ))}
        </Box>
      ) : null}
      <Box marginTop={1} flexDirection="column">
        {stop ? null : <Text>{t.planConfirm}</Text>}
        {options.map((o, i) => (
          <Box key={o.value} gap={1} paddingLeft={i === focus ? 0 : 2}>
            {i === focus ? <Text color="blue">{figures.pointer}</Text> : null}
            <Text color={i === focus ? 'blue' : undefined}>{o.label}</Text>
          </Box>
        ))}
      </Box>
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
