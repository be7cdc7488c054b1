// Which TensorFlow the doctor checks against: --tf, else the pip-installed one, else none.
import { requirementsFor, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { beyondCatalogOptions, tfBeyondCatalog, type TfBeyondCatalog } from '../catalog/newer-tf.js';
import { CudawizError } from '../errors.js';
import { planText } from '../i18n/plan.js';
import type { OsName } from '../platform.js';
import type { MachineFacts } from '../probe/types.js';
import { finding, type Finding } from './finding.js';
import { doctorText as T } from '../i18n/doctor.js';

export interface Target {
  tf?: string;
  from?: '--tf' | 'pip';
  requirements?: Requirements;
  /** Set when the version is newer than the catalog: the path to take instead. */
  beyond?: TfBeyondCatalog;
  finding: Finding;
}

export function chooseTarget(catalog: Catalog, facts: MachineFacts, tf: string | undefined, os: OsName): Target {
  const pip = facts.python.tensorflow?.version;
  const version = tf ?? pip;
  const from = tf ? '--tf' : pip ? 'pip' : undefined;
  if (!version || !from) {
    const where = facts.python.state === 'found' ? T.noTfPython(facts.python.command, facts.python.version) : T.noPythonFound;
    return { finding: finding('tf-target', 'skip', T.noTarget, [where], T.noTargetFix) };
  }
  const source = from === '--tf' ? planText.fromTfFlag : planText.pipInstalled(facts.python.tensorflow?.package ?? 'tensorflow', pip ?? '');
  // Newer than the catalog is a path: say where the version came from and what still works.
  const beyond = tfBeyondCatalog(catalog, version, os, { installed: from === 'pip' });
  if (beyond) {
    const options = beyondCatalogOptions(beyond, os);
    return {
      tf: version,
      from,
      beyond,
      finding: finding('tf-target', 'warn', T.withSource(planText.beyondHeadline(beyond.catalogEnd, version), source), [planText.beyondWhatWorks, ...options.map((o, i) => `${i + 1}. ${o.text}`)], options[0].text),
    };
  }
  try {
    const requirements = requirementsFor(catalog, version, os);
    const row = requirements.row !== version ? T.rowOf(requirements.row) : '';
    return { tf: version, from, requirements, finding: finding('tf-target', 'pass', T.checkingFor(version, source, row)) };
  } catch (error) {
    const e = error as CudawizError;
    return {
      tf: version,
      from,
      // The fix names --tf only where the version came from it; a pip-installed one is not a typo to correct.
      finding: finding('tf-target', 'fail', T.unknownTf(version, source), [e.message], from === '--tf' ? e.fix ?? T.passKnown : T.unknownPipTfFix(facts.python.tensorflow?.package ?? 'tensorflow')),
    };
  }
}
