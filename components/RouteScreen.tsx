// After the version: how to get CUDA and cuDNN — from NVIDIA's per-component archives into a
// per-user folder, as pip wheels in a virtual environment, or as a system toolkit. Shown only where
// more than one exists. The first is the recommended one (the rule `install` without --route follows),
// with one line saying why; under the choice, what each route downloads and the CUDA it installs.
import { Select } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import { routeFacts } from '../src/routes/index.js';
import { bundleText } from '../src/i18n/bundle.js';
import { routesText } from '../src/i18n/routes.js';
import type { Route, RouteNotes, WizardBundle } from '../src/wizard/controller.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function RouteScreen({ tf, routes, sizes, notes, bundles = [], onPick, onBack }: { tf: string; routes: Route[]; sizes?: Partial<Record<Route, string>>; notes?: RouteNotes; bundles?: WizardBundle[]; onPick(route: Route, bundle?: string): void; onBack(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  // Before the sizes are known, the route's own label with no size claim (its one registry entry, src/routes).
  const label = (r: Route) => notes?.labels[r] ?? routeFacts(r).label([]);
  return (
    <Box flexDirection="column">
      <Text bold>{t.chooseRoute(tf)}</Text>
      <Select
        options={[
          // A bundle found in Downloads first: it is what the user made this machine's setup from.
          ...bundles.map((b, i) => ({ value: `bundle:${i}`, label: bundleText.useBundle(b.dir.split(/[\\/]/).pop() ?? b.dir, b.route) })),
          ...routes.map((r, i) => ({ value: r, label: i === 0 && !bundles.length ? t.routeRecommended(label(r)) : label(r) })),
        ]}
        onChange={(v) => {
          const b = v.startsWith('bundle:') ? bundles[Number(v.slice(7))] : undefined;
          if (b) onPick(b.route, b.dir);
          else onPick(v as Route);
        }}
      />
      {notes && !bundles.length ? <Text>{notes.why}</Text> : null}
      {/* No driver (or another blocker every preflight checks): the plan will stop there, so the screen says so first. */}
      {notes?.stops ? (
        <Box flexDirection="column">
          <StatusLine status="fail" text={routesText.allStop(notes.stops.cause)} />
          {notes.stops.fix ? (
            <Box marginLeft={2}>
              <Text>{`→ ${notes.stops.fix}`}</Text>
            </Box>
          ) : null}
        </Box>
      ) : null}
      {/* What each route downloads, as `cudawiz requirements` says it, and the CUDA it installs: one short line each. */}
      {routes.filter((r) => sizes?.[r]).map((r) => (
        // Indented by a margin, not by spaces: a line that wraps keeps its indent.
        <Box key={r} flexDirection="column" marginLeft={2}>
          <Text dimColor>{routesText.installs(r, sizes![r]!, notes?.cuda[r]?.version)}</Text>
          {notes?.cuda[r]?.newer ? <Text dimColor>{notes.cuda[r]!.newer}</Text> : null}
        </Box>
      ))}
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
