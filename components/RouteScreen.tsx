// After the version: how to get CUDA and cuDNN — from NVIDIA's per-component archives into a
// per-user folder, as pip wheels in a virtual environment, or as a system toolkit. Shown only where
// more than one exists.
import { Select } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import { redistText } from '../src/i18n/redist.js';
import type { Route } from '../src/wizard/controller.js';
import { KeyHints } from './KeyHints.js';
import { useUi } from './UiContext.js';

export function RouteScreen({ tf, routes, onPick, onBack }: { tf: string; routes: Route[]; onPick(route: Route): void; onBack(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  const labels: Record<Route, string> = { redist: redistText.routeLabel, pip: t.routePip, toolkit: t.routeToolkit };
  return (
    <Box flexDirection="column">
      <Text bold>{t.chooseRoute(tf)}</Text>
      <Select options={routes.map((r, i) => ({ value: r, label: i === 0 ? t.routeRecommended(labels[r]) : labels[r] }))} onChange={(v) => onPick(v as Route)} />
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
