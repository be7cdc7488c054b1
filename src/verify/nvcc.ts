// Layer 3: the toolkit's own nvcc reports the release we installed.
import type { Host } from '../host.js';
import { executableName, pathFor, type OsName } from '../platform.js';
import type { LayerResult } from './layers.js';
import { stepsText } from '../i18n/steps.js';

export function parseNvccRelease(text: string): string | undefined {
  return /release (\d+\.\d+)/.exec(text)?.[1];
}

export async function verifyNvcc(host: Host, os: OsName, toolkitDir: string, expected: string): Promise<LayerResult> {
  const nvcc = pathFor(os).join(toolkitDir, 'bin', executableName(os, 'nvcc'));
  const r = await host.run(nvcc, ['--version'], { timeoutMs: 20_000 });
  const release = parseNvccRelease(r.stdout);
  const base = { id: 'nvcc' as const, title: stepsText.layerNvcc(expected) };
  if (r.exitCode === null) return { ...base, status: 'fail', evidence: [`${nvcc}: ${r.failure ?? stepsText.couldNotRun}`], fix: stepsText.reinstallCuda(expected) };
  if (release !== expected) {
    return { ...base, status: 'fail', evidence: [`${nvcc} --version: ${release ? `release ${release}` : r.stdout.split('\n')[0] || stepsText.noOutput}`], fix: stepsText.notThisCuda(toolkitDir, expected) };
  }
  return { ...base, status: 'pass', evidence: [`${nvcc} --version → release ${release}`] };
}
