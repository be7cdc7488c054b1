// What a journalled package change may ask rollback to run: one of three managers back to a
// recorded state, and nothing else. Apart from package-change.ts so the journal's reader can check
// it without importing the code that writes the journal.
import { envText } from '../i18n/env.js';
import { shownCommand } from './shell-quote.js';
import type { EnvChange } from './types.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+!_:~-]*$/;

export const commandLine = (c: { file: string; args: readonly string[] }): string => shownCommand([c.file, ...c.args]);

/** Why a journalled package change is not one cudawiz makes (its undo could run anything else); undefined when it is. */
export function unsafePackageUndo(change: EnvChange): string | undefined {
  const u = change.undo;
  if (!u) return undefined;
  const base = u.file.split(/[\\/]/).pop() ?? '';
  const a = u.args;
  if (/^(conda|mamba|micromamba)(\.exe|\.bat)?$/i.test(base)) {
    const ok = a.length === 6 && a[0] === 'install' && a[1] === '--yes' && a[2] === '-p' && a[3] === change.target && a[4] === '--revision' && /^\d+$/.test(a[5]);
    return ok ? undefined : envText.runsCommand(commandLine(u));
  }
  if (/^python(\d+(\.\d+)?)?(\.exe)?$/i.test(base)) {
    const ok = u.file === change.target && a.length >= 4 && a[0] === '-m' && a[1] === 'pip' && a[2] === 'install' && a.slice(3).every((p) => { const [n, v, ...rest] = p.split('=='); return rest.length === 0 && NAME.test(n) && VERSION.test(v ?? ''); });
    return ok ? undefined : envText.runsCommand(commandLine(u));
  }
  if (base === 'apt-get' && change.target === 'apt') {
    const ok = a.length >= 3 && a[0] === 'install' && a[1] === '-y' && a.slice(2).every((p) => { const [n, v, ...rest] = p.split('='); return rest.length === 0 && NAME.test(n) && VERSION.test(v ?? ''); });
    return ok ? undefined : envText.runsCommand(commandLine(u));
  }
  return envText.runsCommand(commandLine(u));
}
