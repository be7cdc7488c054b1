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
