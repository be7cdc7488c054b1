// The route screen as the real wizard draws it (its services through src/wizard/lazy-services.ts, as
// `cudawiz` mounts them): why the first route is recommended and what each route installs — also on a
// machine with no NVIDIA driver, where the screen says first that every route's plan will stop at the
// driver, as the plan then does. In English and in Chinese.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../components/App.js';
import { prepareCatalog } from '../../src/cli/catalog.js';
import { UiContext } from '../../components/UiContext.js';
import { en } from '../../src/i18n/en.js';
import { setLang } from '../../src/i18n/localized.js';
import { zh } from '../../src/i18n/zh.js';
import { WizardController } from '../../src/wizard/controller.js';
import { lazyServices } from '../../src/wizard/lazy-services.js';
import { brokenMachine, hostOf, type BrokenMachine } from '../helpers/broken-machine.js';
import { englishIn } from '../helpers/english-runs.js';
import { waitForFrame } from '../helpers/ink.js';

afterEach(() => setLang('en'));

// As the entry starts it: the prebuilt catalog, or the assets' where there is none (a run from source).
const catalogReady = prepareCatalog(undefined).then((load) => load());

const WORDS = {
  en: { t: en, scan: 'New setup', why: 'Recommended: no administrator', installs: /redist: \d+ files, [\d.]+ GiB in all — installs CUDA 12\.\d+\.\d+/, toolkit: /toolkit: .* — installs CUDA\s+12\.5/, stops: "Each route's plan stops at its first step", driver: 'nvidia-smi cannot talk to the NVIDIA driver' },
  zh: { t: zh, scan: 'Esc 或 q 退出', why: '推荐：无需管理员权限', installs: /redist: \d+ 个文件，共 [\d.]+ GiB——安装 CUDA 12\.\d+\.\d+/, toolkit: /toolkit: .*——安装 CUDA\s*12\.5/, stops: '每种方式的计划都会在第一步停下', driver: 'nvidia-smi 无法和 NVIDIA 显卡驱动通信' },
} as const;

/** The wizard on `m` up to TF 2.21's route screen; the frame and the controller. */
async function routeScreen(m: BrokenMachine, lang: 'en' | 'zh') {
  setLang(lang);
  const w = WORDS[lang];
  const controller = new WizardController(lazyServices({ globals: { cudaRoot: m.cudaRoot, cacheDir: m.cache } as never, host: hostOf(m, m.env), catalog: catalogReady }));
  const ui = render(
    <UiContext.Provider value={{ t: w.t, unicode: true }}>
      <App controller={controller} />
    </UiContext.Provider>,
  );
  await controller.start();
  const scan = await waitForFrame(ui.lastFrame, w.scan);
  await controller.chooseMode('setup');
  await controller.pickTf('2.21.0');
  const frame = (await waitForFrame(ui.lastFrame, w.installs)).replace(/\n\s*/g, ' ');
  return { scan, frame, controller, ui };
}

describe('the route screen says why and what each route installs', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`no NVIDIA driver: the reason, the CUDA each route installs, and that every plan stops at the driver, as the plan does (${lang})`, async () => {
      const w = WORDS[lang];
      const m = await brokenMachine({ smi: 'no-driver' });
      const { scan, frame, controller, ui } = await routeScreen(m, lang);
      // The scan says it in the run's language too, on the GPU's line (not nvidia-smi's English line).
      expect(scan.split('\n').find((r) => r.includes(`${w.t.scanGpu}${w.t.labelEnd}`))).toMatch(new RegExp(`^✗ .*${w.driver}`));
      if (lang === 'zh') expect(englishIn(scan)).toEqual([]);
      expect(frame).toContain(w.why);
      expect(frame).toMatch(w.installs);
      expect(frame).toMatch(w.toolkit);
      expect(frame).toContain(w.stops);
      expect(frame).toContain(w.driver);
      if (lang === 'zh') expect(englishIn(frame)).toEqual([]);
      // The first route's plan stops where the route screen said it would.
      await controller.chooseRoute('redist');
      const s = controller.getState();
      expect(s.screen === 'plan' && s.preview.stop?.message).toContain(w.driver);
      ui.unmount();
    }, 60_000);
  }

  it('a driver: the reason and the sizes, no stop', async () => {
    const { frame, ui } = await routeScreen(await brokenMachine(), 'en');
    expect(frame).toContain(WORDS.en.why);
    expect(frame).toMatch(WORDS.en.installs);
    expect(frame).not.toContain(WORDS.en.stops);
    ui.unmount();
  }, 60_000);
});
