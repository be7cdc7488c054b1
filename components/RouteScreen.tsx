// After the version: how to get CUDA and cuDNN — from NVIDIA's per-component archives into a
// per-user folder, as pip wheels in a virtual environment, or as a system toolkit. Shown only where
// more than one exists.
import { Select } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import { redistText } from '../src/i18n/redist.js';
import { bundleText } from '../src/i18n/bundle.js';
import type { Route, WizardBundle } from '../src/wizard/controller.js';
import { KeyHints } from './KeyHints.js';
import { useUi } from './UiContext.js';

export function RouteScreen({ tf, routes, sizes, bundles = [], onPick, onBack }: { tf: string; routes: Route[]; sizes?: Partial<Record<Route, string>>; bundles?: WizardBundle[]; onPick(route: Route, bundle?: string): void; onBack(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  const labels: Record<Route, string> = { redist: redistText.routeLabel, pip: t.routePip, toolkit: t.routeToolkit };
  return (
    <Box flexDirection="column">
      <Text bold>{t.chooseRoute(tf)}</Text>
      <Select
        options={[
          // A bundle found in Downloads first: it is what the user made this machine's setup from.
          ...bundles.map((b, i) => ({ value: `bundle:${i}`, label: bundleText.useBundle(b.dir.split(/[\\/]/).pop() ?? b.dir, b.route) })),
          ...routes.map((r, i) => ({ value: r, label: i === 0 && !bundles.length ? t.routeRecommended(labels[r]) : labels[r] })),
        ]}
        onChange={(v) => {
          const b = v.startsWith('bundle:') ? bundles[Number(v.slice(7))] : undefined;
          if (b) onPick(b.route, b.dir);
          else onPick(v as Route);
        }}
      />
      {/* What each route downloads, as `cudawiz requirements` says it: one short line each, under the choice. */}
      {routes.filter((r) => sizes?.[r]).map((r) => (
        <Text key={r} dimColor>{`  ${r}: ${sizes![r]}`}</Text>
      ))}
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
