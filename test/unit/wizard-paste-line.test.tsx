// A command to paste is never broken by a newline on an 80-column screen (#39): the load-order
// remedy's "in this shell: export LD_LIBRARY_PATH=…" line with a long path, and the Done screen's
// `pip install` and check commands, are each drawn whole on a row of their own. The Done screen says to
// open a new terminal, and never suggests installing the TF pip already has. In English and Chinese.
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DoneScreen } from '../../components/DoneScreen.js';
import { StepView } from '../../components/StepView.js';
import { UiContext } from '../../components/UiContext.js';
import { en } from '../../src/i18n/en.js';
import { setLang } from '../../src/i18n/localized.js';
import { remediesText } from '../../src/i18n/remedies.js';
import { wizardText } from '../../src/i18n/wizard.js';
import { zh } from '../../src/i18n/zh.js';
import { initialRunnerState, type StepState } from '../../src/plan/events.js';
import type { WhatNow } from '../../src/wizard/controller.js';
import { renderAt80x24, waitForFrame } from '../helpers/ink.js';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  setLang('en');
});

const T = { en, zh } as const;

function draw(lang: 'en' | 'zh', tree: ReactElement) {
  setLang(lang);
  const ui = renderAt80x24(<UiContext.Provider value={{ t: T[lang], unicode: true }}>{tree}</UiContext.Provider>);
  unmount = ui.unmount;
  return ui.frame;
}

const rows = (frame: string) => frame.split('\n').map((l) => l.trimEnd());

describe('a command to paste, on an 80-column screen', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`keeps the whole export line with a long path on one row (${lang})`, async () => {
      setLang(lang);
      const dir = '/home/someone/with/a/rather/long/path/cuda-root/cuda-11.8/lib64';
      const command = `export LD_LIBRARY_PATH="${dir}\${LD_LIBRARY_PATH:+:\${LD_LIBRARY_PATH}}"`;
      const step = { id: 'load-order', title: 'Put the right copies first', status: 'done', log: [], summary: 'done', evidence: [remediesText.thisShell(command)] } as unknown as StepState;
      const frame = await waitForFrame(draw(lang, <StepView step={step} />), 'LD_LIBRARY_PATH');
      expect(command.length).toBeGreaterThan(100);
      expect(rows(frame)).toContain(`    ${command}`);
      expect(rows(frame).some((l) => l.trim() === remediesText.thisShell('').trim())).toBe(true);
    });

    it(`the Done screen: a new terminal first, pip's and the check's commands whole, no pip for the TF pip has (${lang})`, async () => {
      const t = T[lang];
      const done = (whatNow: WhatNow) => <DoneScreen runner={initialRunnerState} result={{ ok: true, exitCode: 0 }} whatNow={whatNow} onQuit={() => undefined} />;
      let frame = await waitForFrame(draw(lang, done({ pip: 'tensorflow==2.16.1' })), t.keysDone);
      const newTerminal = wizardText.whatNowNewTerminal;
      // The words wrap under their number; the commands are whole, each on its row.
      expect(frame.replace(/\s+/g, '')).toContain(`1.${newTerminal.replace(/\s+/g, '')}`);
      expect(frame).toContain(`  1. ${newTerminal.split(' ')[0]}`);
      expect(rows(frame)).toContain(`  2. ${t.whatNowPip('tensorflow==2.16.1')}`);
      expect(rows(frame)).toContain(`  3. ${t.whatNowCheck}`);
      expect(t.whatNowCheck.length + 5).toBeGreaterThan(80);
      unmount?.();
      // TF already installed (whatNowFor says no pip): nothing suggests installing it.
      frame = await waitForFrame(draw(lang, done({})), t.keysDone);
      expect(frame.replace(/\s+/g, '')).toContain(newTerminal.replace(/\s+/g, ''));
      expect(frame).not.toContain('pip install');
      expect(rows(frame)).toContain(`  2. ${t.whatNowCheck}`);
    });
  }
});
