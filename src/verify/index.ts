// After install and on demand: (1) the manifest's files are there with their hashes, (2) every
// library TF needs resolves, first hit, to the right version, (3) nvcc reports the toolkit,
// (4) a fresh Python imports TF and lists the GPUs, its log read by explain.
import { currentState, hostPath, readManifest, sameState } from '../cudnn/manifest.js';
import { explainLog } from '../doctor/explain.js';
import { diagnose } from '../doctor/diagnose.js';
import { newShellHost } from '../env/new-shell.js';
import type { Host } from '../host.js';
import { windowsText } from '../i18n/windows.js';
import type { Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { OsName } from '../platform.js';
import type { ProbeCache } from '../probe/cache.js';
import { safetyText } from '../i18n/safety.js';
import { probeMachine } from '../probe/index.js';
import { checkLibraryFiles, isLibraryName, toolkitLibraryProblems, type LayerResult } from './layers.js';
import { verifyNvcc } from './nvcc.js';
import { importTensorflow } from './tensorflow.js';
import { stepsText } from '../i18n/steps.js';
import { verifyText } from '../i18n/verify.js';

export type { LayerResult } from './layers.js';

export async function verifyManifest(toolkitDir: string): Promise<LayerResult> {
  const base = { id: 'manifest' as const, title: stepsText.layerManifest };
  const manifest = await readManifest(toolkitDir);
  if (!manifest) return { ...base, status: 'skip', evidence: [stepsText.noManifest(toolkitDir)] };
  if (manifest.state !== 'complete') return { ...base, status: 'fail', evidence: [verifyText.manifestState(manifest.state)], fix: verifyText.finishOrRollBack };
  const changed: string[] = [];
  for (const f of manifest.files) {
    if (!sameState(await currentState(hostPath(toolkitDir, f.path)), f)) changed.push(f.path);
  }
  if (changed.length) return { ...base, status: 'fail', evidence: [verifyText.changedOrMissing(changed)], fix: verifyText.copyAgain };
  // Each library resolves to a real file of its own name (not a loop, not empty, not another library).
  const libs = manifest.files.filter((f) => isLibraryName(f.path.split('/').pop() ?? '')).map((f) => hostPath(toolkitDir, f.path));
  const bad = await checkLibraryFiles(libs);
  if (bad.length) return { ...base, status: 'fail', evidence: bad.slice(0, 5).map((b) => b.problem), fix: safetyText.librariesFix };
  return { ...base, status: 'pass', evidence: [stepsText.filesMatch(manifest.files.length, manifest.archive.version), safetyText.librariesReal(libs.length)] };
}

/** What a setup's verify looks at: a toolkit for a TF, on a machine (as `host` sees it), with the run's probe. */
export interface VerifyTarget {
  host: Host;
  os: OsName;
  catalog: Catalog;
  /** The run's probe: which Python has TF is known; re-probed only when the PATH a new process gets differs. */
  probes: ProbeCache;
  tf: string;
  req: Requirements;
  /** major.minor of the toolkit TF needs. */
  cuda: string;
  /** Where toolkits are looked for, and the one verified. */
  root: string;
  toolkitDir: string;
}

export async function verifySetup(ctx: VerifyTarget): Promise<LayerResult[]> {
  const layers: LayerResult[] = [await verifyManifest(ctx.toolkitDir)];
  // What a terminal opened now gets (the rc file's cudawiz script, Windows' saved PATH), never this
  // process's own environment: a change not made is not judged as made, and one made is seen.
  const after = await newShellHost(ctx.host);
  const host = after.host;
  // The run's probe: which Python has TF is known; the import below is the fresh one that counts.
  // A new PATH is a new machine to look at: probed afresh, its Python found through that PATH.
  const facts = after.changed ? await probeMachine(host, { cudaRoot: ctx.root, catalog: ctx.catalog }) : await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog });
  // load-order:DIR is the doctor's one finding for the libraries one folder decides (src/doctor/group.ts).
  const libs = diagnose(ctx.catalog, facts, { tf: ctx.tf, os: ctx.os }).filter((f) => f.id.startsWith('library:') || f.id.startsWith('libraries:') || f.id.startsWith('load-order:'));
  const failing = libs.filter((f) => f.status === 'fail');
  // The toolkit's copies of TF's libraries must be real libraries of their own name (libcudart.so.10.1 → libcudnn is not).
  const fake = await toolkitLibraryProblems(ctx.os, ctx.toolkitDir, ctx.req.libraries.filter((l) => l.from !== 'driver').map((l) => l.file));
  layers.push({
    id: 'libraries',
    title: stepsText.layerLibraries(ctx.req.libraries.length, ctx.cuda, String(ctx.req.cudnn)),
    status: failing.length || fake.length ? 'fail' : 'pass',
    // The new-terminal note first, so the step's one-line summary says it.
    evidence: [...(after.changed ? [ctx.os === 'windows' ? windowsText.judgedForNewProcesses : verifyText.judgedForNewShell(after.sourced)] : []), ...[...fake.map((f) => f.problem), ...(failing.length ? failing : fake.length ? [] : libs).flatMap((f) => [f.title, ...f.evidence.slice(0, 1)])].slice(0, 6)],
    fix: fake.length ? safetyText.librariesFix : (failing[0]?.fix ?? undefined),
  });
  layers.push(await verifyNvcc(host, ctx.os, ctx.toolkitDir, ctx.cuda));
  const python = facts.python.state === 'found' ? facts.python.executable ?? facts.python.command : undefined;
  if (!python || !facts.python.tensorflow?.version) {
    layers.push({ id: 'tensorflow', title: stepsText.layerTensorflow, status: 'skip', evidence: [python ? stepsText.tfNotInstalled : stepsText.noPython], fix: `pip install ${ctx.req.pip}` });
    return layers;
  }
  const tf = await importTensorflow(host, python);
  const explained = explainLog(ctx.catalog, tf.log, { os: ctx.os });
  const problems = explained.findings.filter((f) => f.severity === 'error');
  layers.push({
    id: 'tensorflow',
    title: stepsText.layerTensorflow,
    status: tf.imported && tf.gpus.length > 0 && problems.length === 0 ? 'pass' : 'fail',
    evidence: tf.imported ? [stepsText.tfGpus(String(tf.version), tf.gpus.length), ...problems.map((p) => p.meaning)].slice(0, 4) : [tf.error ?? verifyText.importFailed],
    fix: problems[0]?.fix ?? (tf.imported ? verifyText.doctorShows : `pip install ${ctx.req.pip}`),
  });
  return layers;
}
