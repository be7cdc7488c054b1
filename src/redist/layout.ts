// Where a member of a redist archive lands in the toolkit: NVIDIA's archives hold one top folder
// (`cuda_cudart-linux-x86_64-11.8.89-archive/`) with the component's share of a toolkit inside;
// Linux archives say `lib/` where the installer's toolkit (and every tool) has `lib64/`.
import type { RedistCatalog, RedistPlatform } from './catalog.js';

/** The toolkit-relative, `/`-separated path for an archive member, or undefined for the top folder itself. */
export function toolkitPathFor(catalog: RedistCatalog, platform: RedistPlatform, component: string, member: string): string | undefined {
  const parts = member.replace(/^(\.\/)+/, '').split('/').filter(Boolean);
  if (parts.length < 2) return undefined;
  const inside = parts.slice(1);
  // Every archive has its own LICENSE at the top: kept per component instead of overwriting each other.
  if (inside.length === 1) return `licenses/${component}/${inside[0]}`;
  const renamed = catalog.layout[platform][inside[0]];
  return [renamed ?? inside[0], ...inside.slice(1)].join('/');
}
