// Which CUDA a toolkit directory holds, from the most trustworthy source it has.
import type { Toolkit } from './types.js';

export interface VersionReading {
  version: string;
  versionSource: NonNullable<Toolkit['versionSource']>;
}

/** version.txt (≤ 11.0): "CUDA Version 10.1.243". */
export function parseVersionTxt(text: string): string | undefined {
  return /CUDA Version\s+(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1];
}

/**
 * version.json (11.1+): {"cuda": {"version": "11.5.2"}}. Some releases write a build date as the
 * third part ("11.8.20220929"); then only major.minor is trusted.
 */
export function parseVersionJson(text: string): string | undefined {
  try {
    const doc = JSON.parse(text) as { cuda?: { version?: unknown } };
    const v = typeof doc.cuda?.version === 'string' ? doc.cuda.version : undefined;
    const m = v ? /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(v) : null;
    if (!m) return undefined;
    if (m[3] === undefined || m[3].length >= 6) return `${m[1]}.${m[2]}`;
    return `${m[1]}.${m[2]}.${m[3]}`;
  } catch {
    return undefined;
  }
}

/** cuda_runtime_api.h: "#define CUDART_VERSION  10010" → 10.1. */
export function parseCudartHeader(text: string): string | undefined {
  const m = /#define\s+CUDART_VERSION\s+(\d+)/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  return `${Math.floor(n / 1000)}.${Math.floor((n % 1000) / 10)}`;
}

/** `nvcc --version`: "Cuda compilation tools, release 11.1, V11.1.105" → 11.1 (the V number is nvcc's own). */
export function parseNvccRelease(text: string): string | undefined {
  return /release (\d+\.\d+)/.exec(text)?.[1];
}
