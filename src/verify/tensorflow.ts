// Layer 4: a fresh Python imports TensorFlow with its logs on and lists the GPUs it can see. The
// log is returned so `explain` can turn a failed library load into versions and fixes.
import type { Host } from '../host.js';
import type { Env } from '../platform.js';
import { verifyText } from '../i18n/verify.js';

export const TF_IMPORT_SCRIPT = [
  'import json, os, sys',
  "os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '0')",
  'try:',
  '    import tensorflow as tf',
  'except Exception as e:',
  "    print(json.dumps({'imported': False, 'error': repr(e)})); sys.exit(0)",
  "gpus = [d.name for d in tf.config.list_physical_devices('GPU')]",
  'try:',
  '    build = {k: str(v) for k, v in dict(tf.sysconfig.get_build_info()).items()}',
  'except Exception:',
  '    build = {}',
  "print(json.dumps({'imported': True, 'version': tf.__version__, 'gpus': gpus, 'build': build}))",
].join('\n');

export interface TfImport {
  ran: boolean;
  imported: boolean;
  version?: string;
  gpus: string[];
  build: Record<string, string>;
  error?: string;
  /** TensorFlow's own log (stderr), for explain. */
  log: string;
}

export async function importTensorflow(host: Host, python: string, env?: Env): Promise<TfImport> {
  const r = await host.run(python, ['-c', TF_IMPORT_SCRIPT], { timeoutMs: 180_000, env: env ? { ...host.env, ...env, TF_CPP_MIN_LOG_LEVEL: '0' } : undefined });
  const empty = { gpus: [], build: {}, log: r.stderr };
  if (r.exitCode === null) return { ran: false, imported: false, error: r.failure ?? verifyText.couldNotRunPython, ...empty };
  const last = r.stdout.trim().split('\n').pop() ?? '';
  try {
    const doc = JSON.parse(last) as { imported: boolean; version?: string; gpus?: string[]; build?: Record<string, string>; error?: string };
    return { ran: true, imported: doc.imported, version: doc.version, gpus: doc.gpus ?? [], build: doc.build ?? {}, error: doc.error, log: r.stderr };
  } catch {
    return { ran: true, imported: false, error: verifyText.unexpectedOutput(python, last.slice(0, 200)), ...empty };
  }
}
