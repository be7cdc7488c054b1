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
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WizardController, type ScanSummary, type WizardServices } from '../../src/wizard/controller.js';
import { tempDir } from '../helpers/tmp.js';

const services = (os: 'linux' | 'windows') => realWizardServices({ globals: {} as never, host: { ...realHost(), os } });

describe('the route question, with sizes', () => {
  it('gives each offered route its download total, as requirements does', () => {
    expect(services('linux').routeSizes!('2.16')).toEqual({ toolkit: '2 files, at least 824.9 MiB (some sizes unknown)', redist: '11 files, 3.1 GiB in all', pip: 'size unknown' });
    expect(services('windows').routeSizes!('2.10')).toEqual({ toolkit: '2 files, size unknown', redist: '10 files, at least 1.1 GiB (some sizes unknown)' });
  });

  it('draws one line per route under the choice, in the language of the run', async () => {
    const sizes = services('linux').routeSizes!('2.12');
    const ui = render(
      <UiContext.Provider value={{ t: en, unicode: true }}>
        <RouteScreen tf="2.12.0" routes={['redist', 'toolkit']} sizes={sizes} onPick={() => undefined} onBack={() => undefined} />
      </UiContext.Provider>,
    );
    const frame = await waitForFrame(ui.lastFrame, 'redist: 10 files, 2.0 GiB in all');
    expect(frame).toContain('toolkit: 2 files, at least 824.4 MiB (some sizes unknown)');
    expect(frame.indexOf('redist: 10 files')).toBeLessThan(frame.indexOf('toolkit: 2 files'));
    ui.unmount();
    setLang('zh');
    try {
      const zhSizes = services('linux').routeSizes!('2.12');
      const z = render(
        <UiContext.Provider value={{ t: zh, unicode: true }}>
          <RouteScreen tf="2.12.0" routes={['redist', 'toolkit']} sizes={zhSizes} onPick={() => undefined} onBack={() => undefined} />
        </UiContext.Provider>,
      );
      expect(await waitForFrame(z.lastFrame, 'redist: 10 个文件，共 2.0 GiB')).toContain('toolkit: 2 个文件，至少 824.4 MiB（有些文件大小未知）');
      z.unmount();
    } finally {
      setLang('en');
    }
  });
});

describe('"Use a downloaded bundle"', () => {
  it('finds a complete bundle for this TF and OS in Downloads, and not one for another TF, OS or still incomplete', async () => {
    const home = await tempDir('cw-wiz-bundle-');
    const manifest = (tf: string, os: string, complete: boolean) => JSON.stringify({ format: 1, cudawiz: '0.1.0', tensorflow: tf, route: 'redist', os, cuda: '11.8.0', complete, created: new Date().toISOString(), files: [] });
    for (const [name, tf, os, complete] of [['tf-2.10', '2.10', 'linux', true], ['tf-2.10.0-again', '2.10.0', 'linux', true], ['tf-2.12', '2.12', 'linux', true], ['tf-2.10-win', '2.10', 'windows', true], ['tf-2.10-half', '2.10', 'linux', false]] as const) {
      await mkdir(path.join(home, 'Downloads', name), { recursive: true });
      await writeFile(path.join(home, 'Downloads', name, 'cudawiz-bundle.json'), manifest(tf, os, complete));
    }
    const s = realWizardServices({ globals: {} as never, host: { ...realHost({ HOME: home, PATH: process.env.PATH ?? '' }), os: 'linux', home } });
    const found = await s.bundles!('2.10');
    expect(found.map((b) => path.basename(b.dir)).sort()).toEqual(['tf-2.10', 'tf-2.10.0-again']);
    expect(found[0].route).toBe('redist');
  });

  it('is offered first on the route question, even where one route exists, and picking it runs the plan from that bundle', async () => {
    const runs: { route?: string; bundle?: string; dryRun: boolean }[] = [];
    const scan = { gpu: [], lines: [], problems: [], installedTf: undefined } as unknown as ScanSummary;
    const services: WizardServices = {
      scan: async () => scan,
      choices: () => ({ choices: [{ version: '2.3.0', cuda: '10.1', cudnn: '7.6', python: '3.5–3.8' }], defaultVersion: '2.3.0' }),
      routes: () => ['toolkit'],
      bundles: async () => [{ dir: '/home/u/Downloads/tf-2.3-linux', route: 'toolkit' }],
      run: async (_tf, _mode, o) => {
        runs.push({ route: o.route, bundle: o.bundle, dryRun: o.dryRun });
        o.onEvent({ type: 'plan', steps: [] } as never);
        return { ok: true, exitCode: 0 };
      },
      whatNow: () => ({}),
    };
    const controller = new WizardController(services);
    const ui = render(
      <UiContext.Provider value={{ t: en, unicode: true }}>
        <RouteScreen tf="2.3.0" routes={['toolkit']} bundles={[{ dir: '/home/u/Downloads/tf-2.3-linux', route: 'toolkit' }]} onPick={(r, b) => void controller.chooseRoute(r, b)} onBack={() => undefined} />
      </UiContext.Provider>,
    );
    const frame = await waitForFrame(ui.lastFrame, 'Use the downloaded bundle tf-2.3-linux (toolkit route, no network)');
    expect(frame.indexOf('Use the downloaded bundle')).toBeLessThan(frame.indexOf('system CUDA toolkit'));
    ui.unmount();
    await controller.start();
    await controller.chooseMode('setup');
    await controller.pickTf('2.3.0');
    const state = controller.getState();
    expect(state).toMatchObject({ screen: 'route', routes: ['toolkit'], bundles: [{ route: 'toolkit' }] });
    await controller.chooseRoute('toolkit', '/home/u/Downloads/tf-2.3-linux');
    expect(runs).toEqual([{ route: 'toolkit', bundle: '/home/u/Downloads/tf-2.3-linux', dryRun: true }]);
  });
});
