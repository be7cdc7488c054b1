// Layer 3: the toolkit reports the release we installed — its own nvcc, when the folder it sits in is
// one that only root or this user can change; otherwise (a group-writable /usr/local, another user's
// folder) nothing there is run and the release is read from the toolkit's version files (#33).
import path from 'node:path';
import { fileWritableByOthers, writableByOthers } from '../trust/ownership.js';
import type { Host } from '../host.js';
import { doctorText } from '../i18n/doctor.js';
import { executableName, pathFor, type OsName } from '../platform.js';
import { machineFs } from '../probe/machine-fs.js';
import { readToolkitVersion } from '../probe/toolkits.js';
import { majorMinor } from '../version.js';
import type { LayerResult } from './layers.js';
import { stepsText } from '../i18n/steps.js';

export function parseNvccRelease(text: string): string | undefined {
  return /release (\d+\.\d+)/.exec(text)?.[1];
}

/** Why a program must not be run: the first folder (or the file) someone other than root or this user can change. */
export async function untrustedProgram(os: OsName, program: string): Promise<string | undefined> {
  if (os === 'windows') return undefined;
  return (await writableByOthers(path.dirname(program))) ?? ((await fileWritableByOthers(program)) ? program : undefined);
}

export async function verifyNvcc(host: Host, os: OsName, toolkitDir: string, expected: string): Promise<LayerResult> {
  const nvcc = pathFor(os).join(toolkitDir, 'bin', executableName(os, 'nvcc'));
  const base = { id: 'nvcc' as const, title: stepsText.layerNvcc(expected) };
  const untrusted = await untrustedProgram(os, nvcc);
  if (untrusted) {
    const reading = readToolkitVersion(machineFs(os), toolkitDir);
    const release = reading ? majorMinor(reading.version) : undefined;
    const notRun = doctorText.notRunUntrusted(nvcc, untrusted);
    if (release !== expected) return { ...base, status: 'fail', evidence: [notRun, doctorText.versionFrom(reading?.versionSource, release)], fix: stepsText.notThisCuda(toolkitDir, expected) };
    return { ...base, status: 'pass', evidence: [notRun, doctorText.versionFrom(reading?.versionSource, release)] };
  }
  const r = await host.run(nvcc, ['--version'], { timeoutMs: 20_000 });
  const release = parseNvccRelease(r.stdout);
  if (r.exitCode === null) return { ...base, status: 'fail', evidence: [`${nvcc}: ${r.failure ?? stepsText.couldNotRun}`], fix: stepsText.reinstallCuda(expected) };
  if (release !== expected) {
    return { ...base, status: 'fail', evidence: [`${nvcc} --version: ${release ? `release ${release}` : r.stdout.split('\n')[0] || stepsText.noOutput}`], fix: stepsText.notThisCuda(toolkitDir, expected) };
  }
  return { ...base, status: 'pass', evidence: [`${nvcc} --version → release ${release}`] };
}
