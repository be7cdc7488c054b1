// The wizard's route question shows what each route downloads, the same words `requirements` uses:
// the redist route's archives with their total, the installer route's "size unknown" (never 0 B).
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { RouteScreen } from '../../components/RouteScreen.js';
import { UiContext } from '../../components/UiContext.js';
import { realHost } from '../../src/host.js';
import { en } from '../../src/i18n/en.js';
import { zh } from '../../src/i18n/zh.js';
import { setLang } from '../../src/i18n/localized.js';
import { realWizardServices } from '../../src/wizard/services.js';
import { waitForFrame } from '../helpers/ink.js';

const services = (os: 'linux' | 'windows') => realWizardServices({ globals: {} as never, host: { ...realHost(), os } });

describe('the route question, with sizes', () => {
  it('gives each offered route its download total, as requirements does', () => {
    expect(services('linux').routeSizes!('2.16')).toEqual({ toolkit: '2 files, at least 824.9 MiB (some sizes unknown)', redist: '10 files, 3.0 GiB in all', pip: 'size unknown' });
    expect(services('windows').routeSizes!('2.10')).toEqual({ toolkit: '2 files, size unknown', redist: '9 files, at least 993.2 MiB (some sizes unknown)' });
  });

  it('draws one line per route under the choice, in the language of the run', async () => {
    const sizes = services('linux').routeSizes!('2.12');
    const ui = render(
      <UiContext.Provider value={{ t: en, unicode: true }}>
        <RouteScreen tf="2.12.0" routes={['redist', 'toolkit']} sizes={sizes} onPick={() => undefined} onBack={() => undefined} />
      </UiContext.Provider>,
    );
    const frame = await waitForFrame(ui.lastFrame, 'redist: 9 files, 2.0 GiB in all');
    expect(frame).toContain('toolkit: 2 files, at least 824.4 MiB (some sizes unknown)');
    expect(frame.indexOf('redist: 9 files')).toBeLessThan(frame.indexOf('toolkit: 2 files'));
    ui.unmount();
    setLang('zh');
    try {
      const zhSizes = services('linux').routeSizes!('2.12');
      const z = render(
        <UiContext.Provider value={{ t: zh, unicode: true }}>
          <RouteScreen tf="2.12.0" routes={['redist', 'toolkit']} sizes={zhSizes} onPick={() => undefined} onBack={() => undefined} />
        </UiContext.Provider>,
      );
      expect(await waitForFrame(z.lastFrame, 'redist: 9 个文件，共 2.0 GiB')).toContain('toolkit: 2 个文件，至少 824.4 MiB（有些文件大小未知）');
      z.unmount();
    } finally {
      setLang('en');
    }
  });
});
