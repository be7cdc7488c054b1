// The wizard offers the redist route first where it exists, the installer second; where it does
// not (TF 2.3's CUDA 10.1 has no per-component archives) only the installer is offered.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { RouteScreen } from '../../components/RouteScreen.js';
import { UiContext } from '../../components/UiContext.js';
import { realHost } from '../../src/host.js';
import { en } from '../../src/i18n/en.js';
import { redistText } from '../../src/i18n/redist.js';
import { realWizardServices } from '../../src/wizard/services.js';
import { KEY, waitForFrame } from '../helpers/ink.js';

const services = (os: 'linux' | 'windows') => realWizardServices({ globals: {} as never, host: { ...realHost(), os } });

describe('the route question', () => {
  it('lists redist first for TF 2.10 (Linux and Windows) and TF 2.14 on Linux, the installer last; TF 2.3 only the installer', () => {
    expect(services('linux').routes('2.10')).toEqual(['redist', 'toolkit']);
    expect(services('windows').routes('2.10')).toEqual(['redist', 'toolkit']);
    expect(services('linux').routes('2.14')).toEqual(['redist', 'pip', 'toolkit']);
    expect(services('linux').routes('2.3')).toEqual(['toolkit']);
    expect(services('windows').routes('2.12')).not.toContain('redist');
  });

  it('draws the redist choice first and picks it with Enter', async () => {
    let picked: string | undefined;
    const ui = render(
      <UiContext.Provider value={{ t: en, unicode: true }}>
        <RouteScreen tf="2.10.0" routes={['redist', 'toolkit']} onPick={(r) => (picked = r)} onBack={() => undefined} />
      </UiContext.Provider>,
    );
    const frame = await waitForFrame(ui.lastFrame, 'per-component CUDA archives');
    expect(frame.indexOf('per-component CUDA archives')).toBeLessThan(frame.indexOf('a system CUDA toolkit'));
    ui.stdin.write(KEY.enter);
    await waitForFrame(() => (picked ? 'picked' : ''), 'picked');
    expect(picked).toBe('redist');
    ui.unmount();
  });
});

describe('the route screen says why, and what each route installs', () => {
  it('TF 2.21 on Linux: redist recommended with its reason; it installs CUDA 12.9.1 where the version list says 12.5, and says why; no size claim the sizes do not prove', async () => {
    const s = services('linux');
    const notes = s.routeNotes!('2.21');
    expect(s.routes('2.21')[0]).toBe('redist');
    expect(notes.why).toBe('Recommended: no administrator, and only the CUDA libraries TensorFlow loads, into a folder of your own.');
    expect(notes.cuda.redist?.version).toBe('12.9.1');
    expect(notes.cuda.redist?.newer).toContain('TensorFlow 2.21 was built with CUDA 12.5');
    expect(notes.cuda.toolkit?.version).toMatch(/^12\.5/);
    expect(notes.cuda.toolkit?.newer).toBeUndefined();
    // The installer's size is unknown to the catalog: "small download" is not claimed beside it.
    expect(notes.labels.redist).toBe(redistText.routeLabelPlain);
    const ui = render(
      <UiContext.Provider value={{ t: en, unicode: true }}>
        <RouteScreen tf="2.21.0" routes={s.routes('2.21')} sizes={s.routeSizes!('2.21')} notes={notes} onPick={() => undefined} onBack={() => undefined} />
      </UiContext.Provider>,
    );
    const frame = await waitForFrame(ui.lastFrame, 'installs CUDA 12.9.1');
    expect(frame).toContain(`${redistText.routeLabelPlain} — recommended`);
    expect(frame).toContain('Recommended: no administrator');
    expect(frame).toContain('built with CUDA 12.5');
    ui.unmount();
  });
});

describe('the wizard\'s fixed choices fit one row of 80 columns', () => {
  // @inkjs/ui's Select drops the space after ❯ when a label wraps (its flex gap is lost), so every
  // fixed choice must fit 78 columns: 80 less "❯ ". CJK characters count two.
  it('in English and in Chinese, the first route with "recommended" included', async () => {
    const { displayWidth } = await import('../../src/wizard/fit-rows.js');
    const { zh } = await import('../../src/i18n/zh.js');
    const { redistText } = await import('../../src/i18n/redist.js');
    const { wizardText } = await import('../../src/i18n/wizard.js');
    const { setLang } = await import('../../src/i18n/localized.js');
    const wide: string[] = [];
    for (const [lang, t] of [['en', en], ['zh', zh]] as const) {
      setLang(lang);
      const labels = [redistText.routeLabel, t.routePip, t.routeToolkit].map((l) => t.routeRecommended(l));
      labels.push(t.newSetup, t.repair, t.yes, t.no, t.planBack, t.confirmYes, t.confirmNo, wizardText.quit, wizardText.setUpFor('2.21.0', '12.5', '9.3'));
      wide.push(...labels.filter((l) => displayWidth(l) > 78).map((l) => `${lang}: ${l} (${displayWidth(l)})`));
    }
    setLang('en');
    expect(wide).toEqual([]);
  });
});
