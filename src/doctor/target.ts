// Which TensorFlow the doctor checks against: --tf, else the pip-installed one, else none.
import { requirementsFor, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { CudawizError } from '../errors.js';
import type { OsName } from '../platform.js';
import type { MachineFacts } from '../probe/types.js';
import { finding, type Finding } from './finding.js';
import { doctorText as T } from '../i18n/doctor.js';

export interface Target {
  tf?: string;
  from?: '--tf' | 'pip';
  requirements?: Requirements;
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
  const source = from === '--tf' ? T.fromFlag : T.pipInstalled(facts.python.tensorflow?.package ?? 'tensorflow', pip);
  try {
    const requirements = requirementsFor(catalog, version, os);
    const row = requirements.row !== version ? T.rowOf(requirements.row) : '';
    return { tf: version, from, requirements, finding: finding('tf-target', 'pass', T.checkingFor(version, source, row)) };
  } catch (error) {
    const e = error as CudawizError;
    return {
      tf: version,
      from,
      finding: finding('tf-target', 'fail', T.unknownTf(version, source), [e.message], e.fix ?? T.passKnown),
    };
  }
}
