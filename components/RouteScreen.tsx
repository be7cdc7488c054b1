// After the version: how to get CUDA and cuDNN — from NVIDIA's per-component archives into a
// per-user folder, as pip wheels in a virtual environment, or as a system toolkit. Shown only where
// more than one exists.
import { Select } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import { redistText } from '../src/i18n/redist.js';
import type { Route } from '../src/wizard/controller.js';
import { KeyHints } from './KeyHints.js';
import { useUi } from './UiContext.js';

export function RouteScreen({ tf, routes, sizes, onPick, onBack }: { tf: string; routes: Route[]; sizes?: Partial<Record<Route, string>>; onPick(route: Route): void; onBack(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  const labels: Record<Route, string> = { redist: redistText.routeLabel, pip: t.routePip, toolkit: t.routeToolkit };
  return (
    <Box flexDirection="column">
      <Text bold>{t.chooseRoute(tf)}</Text>
      <Select options={routes.map((r, i) => ({ value: r, label: i === 0 ? t.routeRecommended(labels[r]) : labels[r] }))} onChange={(v) => onPick(v as Route)} />
      {/* What each route downloads, as `cudawiz requirements` says it: one short line each, under the choice. */}
      {routes.filter((r) => sizes?.[r]).map((r) => (
        <Text key={r} dimColor>{`  ${r}: ${sizes![r]}`}</Text>
      ))}
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
