// One finding per CUDA runtime the loader finds: which catalog TensorFlow versions it serves, exactly or
// by minor-version compatibility (with the driver floor that implies), and which of its major it cannot.
import type { Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { doctorText as T } from '../i18n/doctor.js';
import type { MachineFacts } from '../probe/types.js';
import { major, majorMinor } from '../version.js';
import { finding, type Finding, type FindingId } from './finding.js';
import { cudaRuntimes, type CudaRuntime, type ServedTf } from './runtime-serving.js';

/** "2.5–2.11" when the rows are consecutive in the catalog, else a list; rows as major.minor. */
export function tfRange(catalog: Catalog, os: MachineFacts['os'], tfs: readonly string[]): string {
  const order = (os === 'windows' ? catalog.tensorflow.windows : catalog.tensorflow.linux).map((r) => r.version);
  const idx = tfs.map((t) => order.indexOf(t)).sort((a, b) => b - a);
  const consecutive = idx.every((v, i) => i === 0 || idx[i - 1] - v === 1) && idx.every((v) => v >= 0);
  const names = idx.map((i) => majorMinor(order[i]));
  if (names.length > 2 && consecutive) return T.range(names[0], names[names.length - 1]);
  return T.list(names);
}

function byCuda<X extends { cuda: string }>(items: X[]): Map<string, X[]> {
  const m = new Map<string, X[]>();
  for (const it of items) m.set(it.cuda, [...(m.get(it.cuda) ?? []), it]);
  return m;
}

export function runtimeFinding(catalog: Catalog, facts: MachineFacts, r: CudaRuntime, req?: Requirements): Finding {
  const id: FindingId = `cuda-runtime:${r.dir}`;
  const from = r.from === 'unknown' ? '' : T.runtimeFrom(r.from, r.toolkit);
  if (!r.majorMinor) return finding(id, 'skip', T.runtimeVersionUnknown(r.dir, r.cudart), []);
  const version = r.version ?? r.majorMinor;
  const evidence: string[] = [from];
  for (const [cuda, list] of byCuda<ServedTf>(r.serves.filter((s) => s.how === 'exact'))) evidence.push(T.servedExactly(tfRange(catalog, facts.os, list.map((s) => s.tf)), cuda));
  for (const [cuda, list] of byCuda<ServedTf>(r.serves.filter((s) => s.how !== 'exact'))) {
    evidence.push(T.servedByMinorCompat(tfRange(catalog, facts.os, list.map((s) => s.tf)), cuda, major(r.majorMinor), list[0].driverMin));
  }
  for (const [cuda, list] of byCuda(r.notServed)) evidence.push(T.notServedMissing(tfRange(catalog, facts.os, list.map((s) => s.tf)), cuda, T.list([...new Set(list.flatMap((s) => s.missing))])));
  if (r.serves.length === 0) return finding(id, 'skip', T.runtimeServesNone(version, r.dir, r.cudart), evidence);
  evidence.push(T.eachNeedsCudnn);
  // The runtime TF itself loads (its libcudart) and one that does not serve it: the library's verdict, said here too.
  const tfCudart = req?.cuda ? req.libraries.find((l) => l.name === 'cudart')?.file : undefined;
  if (req?.cuda && tfCudart === r.cudart && !r.serves.some((s) => s.tf === req.row)) {
    return finding(id, 'warn', T.runtimeNotThisTf(version, r.dir, r.cudart, tfRange(catalog, facts.os, r.serves.map((s) => s.tf)), req.tensorflow, req.cuda), evidence, T.runtimeNotThisTfFix(`cudawiz repair --tf ${req.tensorflow}`));
  }
  return finding(id, 'pass', T.runtimeServes(version, r.dir, r.cudart, tfRange(catalog, facts.os, r.serves.map((s) => s.tf))), evidence);
}

export function runtimeFindings(catalog: Catalog, facts: MachineFacts, req?: Requirements): Finding[] {
  return cudaRuntimes(catalog, facts).map((r) => runtimeFinding(catalog, facts, r, req));
}
