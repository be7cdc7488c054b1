// The wizard offers the redist route first where it exists, the installer second; where it does
// not (TF 2.3's CUDA 10.1 has no per-component archives) only the installer is offered.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { RouteScreen } from '../../components/RouteScreen.js';
import { UiContext } from '../../components/UiContext.js';
import { realHost } from '../../src/host.js';
import { en } from '../../src/i18n/en.js';
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
