// The catalog a run works with, prepared before the command starts: the bundle's prebuilt built-in
// catalog when no overlay is given (no validator to load), else the validating loader, loaded only then.
import type { Catalog } from '../catalog/schema.js';
import { prebuiltCatalog } from '../catalog/prebuilt.js';

export async function prepareCatalog(overlayFile: string | undefined): Promise<() => Catalog> {
  if (!overlayFile && prebuiltCatalog) {
    const catalog = prebuiltCatalog;
    return () => catalog;
  }
  const { catalogLoader } = await import('../io/context.js');
  return catalogLoader(overlayFile);
}
