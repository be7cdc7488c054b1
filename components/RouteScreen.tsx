// After the version: how to get CUDA and cuDNN — as pip wheels in a virtual environment (nothing
// outside it changes), or as a system toolkit. Shown only where both exist (Linux/WSL2, TF ≥ 2.14).
import { Select } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import type { Route } from '../src/wizard/controller.js';
import { KeyHints } from './KeyHints.js';
import { useUi } from './UiContext.js';

export function RouteScreen({ tf, routes, onPick, onBack }: { tf: string; routes: Route[]; onPick(route: Route): void; onBack(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  const labels: Record<Route, string> = { pip: t.routePip, toolkit: t.routeToolkit };
  return (
    <Box flexDirection="column">
      <Text bold>{t.chooseRoute(tf)}</Text>
      <Select options={routes.map((r) => ({ value: r, label: labels[r] }))} onChange={(v) => onPick(v as Route)} />
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
