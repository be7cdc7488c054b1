// The installer route's facts: NVIDIA's CUDA installer (into the system: an administrator) and the
// cuDNN archive copied into the toolkit. How it plans: src/plan/routes/toolkit.ts.
import { redistText } from '../i18n/redist.js';
import { routesText, uiText } from '../i18n/routes.js';
import { cudnnFile, finish, unavailable, type RouteFacts, type RouteFile } from './files.js';

export const toolkitFacts: RouteFacts = {
  id: 'toolkit',
  admin: true,
  label: () => uiText.routeToolkit,
  why: (f) => routesText.whyToolkit(f.tf),
  files(input) {
    const { req, tf } = input;
    if (!req.gpuSupported || !req.cuda) return unavailable('toolkit', input, redistText.noGpuBuild(tf), req.alternatives[0]?.detail ?? '', true);
    const i = req.cudaInstaller;
    if (!i) return unavailable('toolkit', input, req.notes[0] ?? redistText.noGpuBuild(tf), redistText.useInstaller(tf), true);
    const installer: RouteFile = {
      id: 'cuda-installer',
      kind: 'installer',
      file: i.file,
      url: i.url,
      size: i.size,
      sha256: i.sha256,
      checksum: { sha256: i.sha256, md5: i.md5, md5sumUrl: i.md5sumUrl },
      access: 'public',
      version: i.version,
    };
    const cudnn = cudnnFile(req);
    return finish({ route: 'toolkit', tf, os: input.os, available: true, cuda: i.version, cudnn: cudnn?.version, files: cudnn ? [installer, cudnn] : [installer] }, true);
  },
};
