// Which TensorFlow releases find their pip-installed CUDA/cuDNN by themselves (their libraries carry
// a RUNPATH to ../nvidia/*/lib) and which need those folders on LD_LIBRARY_PATH, per TF's tracker.
import { compareDotted, majorMinor } from '../version.js';

export type WheelLoaderNeed = 'needed' | 'reported' | 'not-known';

export interface WheelLoaderFact {
  /** TF minor lines this applies to, inclusive. */
  from: string;
  to: string;
  need: WheelLoaderNeed;
  why: string;
  source: string;
}

export const WHEEL_LOADER_FACTS: readonly WheelLoaderFact[] = [
  {
    from: '2.12',
    to: '2.13',
    need: 'needed',
    why: 'cuDNN from the nvidia-cudnn-cu11 wheel is found only through LD_LIBRARY_PATH (TF\'s pip guide then set CUDNN_PATH/lib in an activate script).',
    source: 'rstudio/tensorflow#569; tensorflow/tensorflow#60750',
  },
  {
    from: '2.16',
    to: '2.16',
    need: 'needed',
    why: 'tensorflow[and-cuda] 2.16.1 lists no GPU unless site-packages/nvidia/*/lib are on LD_LIBRARY_PATH.',
    source: 'tensorflow/tensorflow#63362, tensorflow/tensorflow#65842, tensorflow/docs#2299',
  },
  {
    from: '2.17',
    to: '2.18',
    need: 'reported',
    why: 'Users reported "Cannot dlopen some GPU libraries" with tensorflow[and-cuda] (2.17.0rc0; 2.18.0 in a Poetry environment) until the folders were put on LD_LIBRARY_PATH.',
    source: 'tensorflow/tensorflow#63362, tensorflow/tensorflow#85311',
  },
];

export function wheelLoaderFact(tf: string | undefined): WheelLoaderFact | undefined {
  if (!tf) return undefined;
  const mm = majorMinor(tf);
  return WHEEL_LOADER_FACTS.find((f) => compareDotted(mm, f.from) >= 0 && compareDotted(mm, f.to) <= 0);
}
