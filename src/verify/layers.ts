// Verification is layered: each layer is a check with evidence, so a failure says exactly which
// layer broke (files, library resolution, the compiler, TensorFlow itself).
import type { Status } from '../status.js';

export type LayerStatus = Extract<Status, 'pass' | 'fail' | 'skip'>;

export interface LayerResult {
  id: 'manifest' | 'libraries' | 'nvcc' | 'tensorflow';
  title: string;
  status: LayerStatus;
  evidence: string[];
  fix?: string;
}
