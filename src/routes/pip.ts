// The pip route's facts: tensorflow[and-cuda] in a virtual environment (Linux/WSL2, TF ≥ the first
// and-cuda release); the NVIDIA wheels are pip's to choose, so one entry, size unknown. No
// administrator. How it plans: src/plan/routes/pip.ts.
import { andCudaPythons, andCudaRequirement, hasAndCuda } from '../catalog/queries.js';
import { pipText } from '../i18n/pip.js';
import { routesText, uiText } from '../i18n/routes.js';
import { finish, unavailable, type RouteFacts, type RouteFile } from './files.js';

export const pipFacts: RouteFacts = {
  id: 'pip',
  admin: false,
  label: () => uiText.routePip,
  why: () => routesText.whyPip,
  files(input) {
    const { catalog, tf, os } = input;
    if (os !== 'linux') return unavailable('pip', input, pipText.refusalWindows(tf, hasAndCuda(catalog, tf, 'linux')), pipText.useToolkitRoute(tf, false), false);
    const requirement = hasAndCuda(catalog, tf, os) ? andCudaRequirement(catalog, tf) : undefined;
    if (!requirement) return unavailable('pip', input, pipText.refusalPredates(tf, catalog.tensorflow.andCudaFirst), pipText.useToolkitRoute(tf, true), false);
    const file: RouteFile = { id: 'tensorflow[and-cuda]', kind: 'pip', file: requirement, checksum: {}, access: 'public', version: requirement.split('==')[1] };
    return finish({ route: 'pip', tf, os, available: true, files: [file], pip: { requirement, pythons: andCudaPythons(catalog, tf) } }, false);
  },
};
