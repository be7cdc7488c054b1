// The wizard: one active screen at a time, rendered from the controller's state. Ctrl+C asks once,
// then stops the runner cleanly.
import { Spinner } from '@inkjs/ui';
import { Box, Static, Text, useApp, useInput } from 'ink';
import { useState, useSyncExternalStore } from 'react';
import { wizardText } from '../src/i18n/wizard.js';
import type { WizardController } from '../src/wizard/controller.js';
import { ChooseTfScreen } from './ChooseTfScreen.js';
import { DoneScreen } from './DoneScreen.js';
import { ErrorScreen } from './ErrorScreen.js';
import { NewerTfScreen } from './NewerTfScreen.js';
import { PlanScreen } from './PlanScreen.js';
import { RouteScreen } from './RouteScreen.js';
import { RunScreen } from './RunScreen.js';
import { ScanScreen } from './ScanScreen.js';
import { StepView } from './StepView.js';
import { useUi } from './UiContext.js';
import { finishedPrefix } from './finished.js';

export function App({ controller }: { controller: WizardController }) {
  const { t } = useUi();
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const [confirmingQuit, setConfirmingQuit] = useState(false);
  const { exit } = useApp();
  const quit = () => {
    controller.quit();
    exit();
  };
  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      // While the machine is looked at or the plan prepared, after the end, or on an error, one Ctrl+C stops.
      if (confirmingQuit || state.screen === 'scan' || state.screen === 'preparing' || state.screen === 'error' || state.screen === 'done') {
        controller.interrupt();
        exit();
      } else setConfirmingQuit(true);
      return;
    }
    if (confirmingQuit) setConfirmingQuit(false);
  });
  // One <Static> for the whole run, fed only ever-growing: finished steps go to scrollback once.
  const finished = state.screen === 'run' || state.screen === 'done' ? finishedPrefix(state.runner) : [];
  return (
    <Box flexDirection="column">
      <Static items={finished}>{(step) => <StepView key={step.id} step={step} />}</Static>
      {/* Once steps start going into <Static> (which prints above the live area), the title would
          land below them, so it shows only on the screens before the run. */}
      {state.screen === 'run' || state.screen === 'done' ? null : (
        <Text bold color="green">
          {t.title}
        </Text>
      )}
      {state.screen === 'scan' ? <ScanScreen scan={state.scan} onChoose={(m) => void controller.chooseMode(m)} onQuit={quit} /> : null}
      {state.screen === 'preparing' ? <Spinner label={wizardText.preparing(state.tf ?? '')} /> : null}
      {state.screen === 'newer' ? <NewerTfScreen beyond={state.beyond} onPick={(v) => void controller.pickTf(v)} onBack={() => controller.back()} onQuit={quit} /> : null}
      {state.screen === 'error' ? <ErrorScreen message={state.message} fix={state.fix} canGoBack={Boolean(state.back)} onBack={() => controller.back()} onQuit={quit} /> : null}
      {state.screen === 'choose' ? (
        <ChooseTfScreen choices={state.choices} defaultVersion={state.defaultVersion} onPick={(v) => void controller.pickTf(v)} onBack={() => controller.back()} />
      ) : null}
      {state.screen === 'route' ? <RouteScreen tf={state.tf} routes={state.routes} sizes={state.sizes} notes={state.notes} bundles={state.bundles} onPick={(r, b) => void controller.chooseRoute(r, b)} onBack={() => controller.back()} /> : null}
      {state.screen === 'plan' ? <PlanScreen tf={state.tf} preview={state.preview} onConfirm={() => void controller.confirm()} onBack={() => controller.back()} onQuit={quit} /> : null}
      {state.screen === 'run' ? <RunScreen runner={state.runner} waiting={state.waiting} onAnswer={(a) => controller.answer(a)} /> : null}
      {state.screen === 'done' ? (
        <DoneScreen
          runner={state.runner}
          result={state.result}
          whatNow={state.whatNow}
          onQuit={quit}
        />
      ) : null}
      {/* Below the screen, where the eye is: a tall plan pushes its top out of a 24-row terminal. */}
      {confirmingQuit ? <Text color="yellow">{t.confirmQuit}</Text> : null}
    </Box>
  );
}
