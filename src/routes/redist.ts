// The redist route's facts: only the CUDA components TF loads, from NVIDIA's per-component archives
// (the release chosen for this TF and, when known, this driver), and the cuDNN archive. No
// administrator, no login. How it plans: src/plan/routes/redist.ts.
import { redistText } from '../i18n/redist.js';
import { routesText } from '../i18n/routes.js';
import { releaseArchives } from '../redist/catalog.js';
import { redistRouteFor } from '../redist/choose.js';
import { cudnnFile, finish, provenSmaller, unavailable, type RouteFacts, type RouteFile } from './files.js';

export const redistFacts: RouteFacts = {
  id: 'redist',
  admin: false,
  // "small download" only where the sizes prove it against the installer route's.
  label: (all) => (provenSmaller(all.find((r) => r.route === 'redist'), all.find((r) => r.route === 'toolkit')) ? redistText.routeLabel : redistText.routeLabelPlain),
  why: () => routesText.whyRedist,
  files(input) {
    const { catalog, redist, req, tf, os } = input;
    const route = redistRouteFor(redist, catalog, req, os, input.driver, input.pinRelease);
    if (!route.ok) return unavailable('redist', input, route.reason, route.fix, false);
    const files: RouteFile[] = releaseArchives(redist, route.choice.release, os).archives.map((a) => ({
      id: a.component,
      kind: 'redist',
      file: a.relative_path.split('/').pop()!,
      url: new URL(a.relative_path, redist.baseUrl).toString(),
      size: a.size,
      sha256: a.sha256,
      checksum: { sha256: a.sha256 },
      access: 'public',
      version: a.version,
    }));
    const cudnn = cudnnFile(req);
    if (cudnn) files.push(cudnn);
    const choice = route.choice;
    return finish(
      { route: 'redist', tf, os, available: true, cuda: choice.release.version, ...(choice.majorMinor !== choice.builtWith ? { cudaWhy: choice.why } : {}), cudnn: cudnn?.version, files },
      false,
    );
  },
};
