// Which TensorFlow releases find their pip-installed CUDA/cuDNN by themselves (their libraries carry
// a RUNPATH to ../nvidia/*/lib) and which need those folders on LD_LIBRARY_PATH: data in
// assets/wheel-loader.json, each fact with its source, validated when this module loads.
import * as z from 'zod';
import data from '../../assets/wheel-loader.json' with { type: 'json' };
import { compareDotted, majorMinor } from '../version.js';

const factSchema = z.object({
  /** TF minor lines this applies to, inclusive. */
  from: z.string().regex(/^\d+\.\d+$/),
  to: z.string().regex(/^\d+\.\d+$/),
  need: z.enum(['needed', 'reported', 'not-known']),
  why: z.string().min(1),
  /** The same reason in Simplified Chinese; without it a zh run says the English one. */
  whyZh: z.string().min(1).optional(),
  source: z.string().min(3),
});

export type WheelLoaderFact = z.infer<typeof factSchema>;
export type WheelLoaderNeed = WheelLoaderFact['need'];

export const WHEEL_LOADER_FACTS: readonly WheelLoaderFact[] = z.object({ about: z.string(), facts: z.array(factSchema) }).parse(data).facts;

export function wheelLoaderFact(tf: string | undefined): WheelLoaderFact | undefined {
  if (!tf) return undefined;
  const mm = majorMinor(tf);
  return WHEEL_LOADER_FACTS.find((f) => compareDotted(mm, f.from) >= 0 && compareDotted(mm, f.to) <= 0);
}
