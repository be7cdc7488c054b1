// Screen 1: what is on this machine, then Repair or New setup.
import { Select, Spinner } from '@inkjs/ui';
import { Box, Text } from 'ink';
import type { Mode, ScanSummary } from '../src/wizard/controller.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function ScanScreen({ scan, onChoose }: { scan?: ScanSummary; onChoose(mode: Mode): void }) {
  const { t } = useUi();
  if (!scan) return <Spinner label={t.scanning} />;
  const labels = { gpu: t.scanGpu, driver: t.scanDriver, toolkits: t.scanToolkits, cudnn: t.scanCudnn, python: t.scanPython };
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
            <StatusLine status="warn" text={t.problemsFound(scan.problems.length)} />
            {/* One truncated line each, so the screen fits 80×24; the doctor has the full story. */}
            {scan.problems.slice(0, 3).map((p) => (
              <Text key={p.title} wrap="truncate-end">
                {'  '}
                {p.title}
              </Text>
            ))}
            {scan.problems.length > 3 ? <Text dimColor>{t.moreProblems(scan.problems.length - 3)}</Text> : null}
          </>
        )}
      </Box>
      <Box marginTop={1} flexDirection="column">
        {scan.hasInstall ? <Text>{t.existingInstall}</Text> : null}
        <Select
          options={[
            ...(scan.hasInstall ? [{ label: t.repair, value: 'repair' }] : []),
            { label: t.newSetup, value: 'setup' },
          ]}
          onChange={(v) => onChoose(v as Mode)}
        />
      </Box>
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
