// Screen 1: what is on this machine, the causes the doctor found (in the order the repair plan acts
// on them), then Repair it (first, whenever there is a problem) or New setup. Esc or q leave.
import { Select, Spinner } from '@inkjs/ui';
import { Box, Text, useInput, useStdout } from 'ink';
import type { Mode, ScanSummary } from '../src/wizard/controller.js';
import { problemsThatFit } from '../src/wizard/fit-rows.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function ScanScreen({ scan, onChoose, onQuit }: { scan?: ScanSummary; onChoose(mode: Mode): void; onQuit(): void }) {
  const { t } = useUi();
  const { stdout } = useStdout();
  useInput(
    (input, key) => {
      if (key.escape || input === 'q') onQuit();
    },
    { isActive: Boolean(scan) },
  );
  if (!scan) return <Spinner label={t.scanning} />;
  const labels = { gpu: t.scanGpu, driver: t.scanDriver, toolkits: t.scanToolkits, cudnn: t.scanCudnn, python: t.scanPython };
  const columns = stdout.columns || 80;
  const extra = (scan.beyond ? 1 : 0) + (scan.warnings?.length ?? 0);
  // The rows besides the causes: the title, five facts, the gaps, the count, "…and N more", the
  // question, its two answers, the key hints with their gap and the row Ink's cursor ends on.
  const shown = problemsThatFit(scan.problems.map((p) => p.title), columns - 2, (stdout.rows || 24) - 16 - extra);
  return (
    <Box flexDirection="column">
      {scan.lines.map((l) => (
        <StatusLine key={l.label} status={l.status} label={labels[l.label]} text={l.text} truncate />
      ))}
      {scan.beyond ? <StatusLine status="warn" text={scan.beyond.headline} /> : null}
      {(scan.warnings ?? []).map((w) => (
        <StatusLine key={w} status="warn" text={w} />
      ))}
      <Box marginTop={1} flexDirection="column">
        {scan.problems.length === 0 ? (
          <StatusLine status="pass" text={t.noProblems} />
        ) : (
          <>
            <StatusLine status="fail" text={t.problemsFound(scan.problems.length)} />
            {/* Wrapped, never cut before the cause; as many as fit, the first always; the doctor has every one. */}
            {/* Indented by a margin, not by spaces: a cause that wraps keeps its indent. */}
            {scan.problems.slice(0, shown).map((p) => (
              <Box key={p.title} marginLeft={2}>
                <Text>{p.title}</Text>
              </Box>
            ))}
            {scan.problems.length > shown ? <Text dimColor>{t.moreProblems(scan.problems.length - shown)}</Text> : null}
          </>
        )}
      </Box>
      <Box marginTop={1} flexDirection="column">
        <Text>{t.chooseWhat}</Text>
        <Select
          options={[
            ...(scan.canRepair ? [{ label: t.repair, value: 'repair' }] : []),
            { label: t.newSetup, value: 'setup' },
          ]}
          onChange={(v) => onChoose(v as Mode)}
        />
      </Box>
      <KeyHints text={t.keysScan} />
    </Box>
  );
}
