// Which TensorFlow the doctor checks against: --tf, else the pip-installed one, else none.
import { requirementsFor, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { CudawizError } from '../errors.js';
import type { OsName } from '../platform.js';
import type { MachineFacts } from '../probe/types.js';
import { finding, type Finding } from './finding.js';

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
    const where = facts.python.state === 'found' ? `TensorFlow is not installed for ${facts.python.command} (Python ${facts.python.version})` : 'no Python interpreter was found';
    return {
      finding: finding('tf-target', 'skip', 'No TensorFlow version to check against: the TensorFlow checks are skipped', [where], 'Say which TensorFlow you want: cudawiz doctor --tf 2.10 (cudawiz requirements --tf V shows what each needs)'),
    };
  }
  const source = from === '--tf' ? 'from --tf' : `pip-installed ${facts.python.tensorflow?.package ?? 'tensorflow'} ${pip}`;
  try {
    const requirements = requirementsFor(catalog, version, os);
    const row = requirements.row !== version ? `, row ${requirements.row}` : '';
    return { tf: version, from, requirements, finding: finding('tf-target', 'pass', `Checking for TensorFlow ${version} (${source}${row})`) };
  } catch (error) {
    const e = error as CudawizError;
    return {
      tf: version,
      from,
      finding: finding('tf-target', 'fail', `cudawiz does not know TensorFlow ${version} (${source})`, [e.message], e.fix ?? 'Pass a known version with --tf'),
    };
  }
}
