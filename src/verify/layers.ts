// Verification is layered: each layer is a check with evidence, so a failure says exactly which
// layer broke (files, library resolution, the compiler, TensorFlow itself).
export type LayerStatus = 'pass' | 'fail' | 'skipped';

export interface LayerResult {
  id: 'manifest' | 'libraries' | 'nvcc' | 'tensorflow';
  title: string;
  status: LayerStatus;
  evidence: string[];
  fix?: string;
}

export function summarizeLayers(layers: LayerResult[]): { ok: boolean; failed: LayerResult[] } {
  const failed = layers.filter((l) => l.status === 'fail');
  return { ok: failed.length === 0, failed };
}
