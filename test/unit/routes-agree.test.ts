// One story for every route, whoever tells it: for every TensorFlow row of the catalog on Linux and
// Windows, `requirements`, the wizard's route list with its sizes, the files `download --tf` bundles and
// `install --dry-run` name the same routes, in the same order, with the same files, CUDA and totals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTotal } from '../../src/bundle/describe.js';
import { builtinCatalog } from '../../src/catalog/load.js';
import { realHost } from '../../src/host.js';
import { loadRedistCatalog } from '../../src/redist/catalog.js';
import { ROUTE_IDS, routeFiles, type RouteId } from '../../src/routes/index.js';
import { realWizardServices } from '../../src/wizard/services.js';
import { runCli } from '../helpers/cli.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureMachine } from '../fixtures/machine.js';

const catalog = builtinCatalog();
const redist = loadRedistCatalog();
interface RouteDoc { route: RouteId; available: boolean; cuda?: string; files: { file: string }[]; knownBytes: number; totalBytes: number | null }
interface PlanEvent { type: 'plan'; steps: { id: string; reason?: string }[] }

let mirror: NvidiaMirror;
beforeAll(async () => {
  mirror = await startMirror({ root: await tempDir('cw-agree-mirror-') });
});
afterAll(async () => {
  await mirror?.close();
});

describe('requirements, the wizard, download and install --dry-run agree', () => {
  for (const os of ['linux', 'windows'] as const) {
    it(`for every TensorFlow row on ${os}`, async () => {
      const wizard = realWizardServices({ globals: {} as never, host: { ...realHost(), os } });
      const m = await fixtureMachine(os);
      const flags = ['--os', os];
      const rows = catalog.tensorflow[os].map((r) => r.version);
      expect(rows.length).toBeGreaterThan(10);
      const took: Record<RouteId, number> = { redist: 0, pip: 0, toolkit: 0 };
      for (const tf of rows) {
        const r = await runCli(['requirements', '--tf', tf, ...flags, '--json']);
        expect(r.code, `${tf} ${r.stderr}`).toBe(0);
        const listed = ((JSON.parse(r.stdout).routes ?? []) as RouteDoc[]);
        const offered = listed.filter((x) => x.available);
        // requirements lists the routes in the one order, where TF has a GPU build here.
        if (listed.length) expect(listed.map((x) => x.route), tf).toEqual([...ROUTE_IDS]);
        // The wizard offers exactly those (the recommended one first), each with requirements' total.
        const routes = wizard.routes(tf);
        expect([...routes].sort(), tf).toEqual(offered.map((x) => x.route).sort());
        const sizes = wizard.routeSizes!(tf);
        for (const doc of offered) {
          // download --tf V --route R bundles these files (its plan is routeFiles, the one requirements prints).
          const planned = routeFiles(catalog, redist, tf, os, doc.route);
          expect(planned.files.map((f) => f.file), `${tf} ${doc.route}`).toEqual(doc.files.map((f) => f.file));
          expect(sizes[doc.route], `${tf} ${doc.route}`).toBe(routeTotal(planned));
          expect(planned.cuda, `${tf} ${doc.route}`).toBe(doc.cuda);
        }
        // install --dry-run without --route takes the wizard's first route and plans requirements' files.
        if (!routes.length) continue;
        const dry = await runCli(['install', '--tf', tf, '--dry-run', '--json', '--configure-env', 'no', '--cache-dir', await tempDir('cw-agree-cache-'), '--mirror', mirror.url], { host: m.host });
        expect(dry.stderr, tf).toContain(`Route: ${routes[0]}.`);
        const plan = dry.stdout.trim().split('\n').map((l) => JSON.parse(l) as PlanEvent).find((e) => e.type === 'plan')!;
        const doc = offered.find((x) => x.route === routes[0])!;
        const reasons = plan.steps.map((s) => s.reason ?? '').join('\n');
        if (doc.route === 'redist') expect(reasons, tf).toContain(`${doc.files.filter((f) => !f.file.startsWith('cudnn')).length} archives of CUDA ${doc.cuda} `);
        if (doc.route === 'toolkit') expect(reasons, tf).toContain(doc.files[0].file);
        const cudnn = doc.files.find((f) => f.file.startsWith('cudnn'));
        if (cudnn) expect(reasons, tf).toContain(cudnn.file);
        took[doc.route]++;
      }
      // Both kinds of plan were walked: the recommended redist route, and the installer where no redist release serves.
      expect(took.redist).toBeGreaterThan(5);
      expect(took.toolkit).toBeGreaterThan(0);
    }, 300_000);
  }

  it('install without --route says which route it took, why, and how to take another; with --route it says nothing of the kind', async () => {
    const m = await fixtureMachine('linux');
    const flags = ['--dry-run', '--configure-env', 'no', '--cache-dir', await tempDir('cw-agree-cache-'), '--mirror', mirror.url, '--no-color'];
    const r = await runCli(['install', '--tf', '2.16', ...flags], { host: m.host });
    expect(r.stdout).toContain('Route: redist. Recommended: no administrator, and only the CUDA libraries TensorFlow loads');
    expect(r.stdout).toContain('Another route: --route pip, --route toolkit (cudawiz requirements --tf 2.16 shows what each downloads).');
    // TF 2.3 has no redist release (CUDA 10.1): the installer is the route, and the only one.
    const old = await runCli(['install', '--tf', '2.3', ...flags], { host: m.host });
    expect(old.stdout).toContain('Route: toolkit. Recommended: the CUDA installer is the way TensorFlow 2.3 gets CUDA here.');
    expect(old.stdout).not.toContain('Another route');
    const asked = await runCli(['install', '--tf', '2.16', '--route', 'toolkit', ...flags], { host: m.host });
    expect(asked.stdout).not.toContain('Route: ');
  }, 120_000);
});
