// Verdicts on the active conda env as a library source: the CUDA and cuDNN its packages carry, the
// driver judged against *that* runtime, and which of its copies come before the system's.
import { driverMinFor, findCudaRelease } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { doctorText as T } from '../i18n/doctor.js';
import { resolveLibrary } from '../probe/resolution.js';
import type { MachineFacts } from '../probe/types.js';
import { compareDotted, majorMinor } from '../version.js';
import { DRIVER_DOWNLOAD_PAGE, finding, type Finding } from './finding.js';
import { samePath } from './toolkit-lookup.js';
import { insideWsl, wslDriverFix } from './checks-wsl.js';

/** The newest CUDA major.minor whose driver minimum this driver meets, from the catalog's releases. */
function newestCudaFor(catalog: Catalog, driver: string, os: 'linux' | 'windows'): string | undefined {
  const ok = catalog.cuda.releases.filter((r) => {
    const min = driverMinFor(catalog, r, os).min;
    return min !== undefined && compareDotted(driver, min) >= 0;
  });
  return ok.map((r) => majorMinor(r.version)).sort(compareDotted).pop();
}

export function condaFindings(facts: MachineFacts, catalog: Catalog): Finding[] {
  const env = facts.conda;
  if (!env) return [];
  const name = env.name ?? env.prefix;
  if (env.error) return [finding('conda', 'warn', T.condaUnreadable(name), [env.error], T.condaUnreadableFix)];
  const out: Finding[] = [];
  const carries = [env.cuda ? T.condaCarry('CUDA', env.cuda.version, env.cuda.package) : '', env.cudnn ? T.condaCarry('cuDNN', env.cudnn.version, env.cudnn.package) : ''].filter(Boolean);
  const evidence = [
    ...env.packages.map((p) => `${p.name} ${p.version}${p.build ? ` ${p.build}` : ''}: ${p.record}`),
    T.labelled(env.libDir, T.list(env.libraries) || T.condaNoLibraries),
    ...facts.toolkits.filter((t) => t.readable && t.version).map((t) => T.condaSystemToolkit(t.version!, t.path)),
  ];
  out.push(finding('conda', 'pass', carries.length ? T.condaCarries(name, env.prefix, carries) : T.condaNoCuda(name, env.prefix), evidence));

  // The driver against the env's CUDA: inside WSL the driver and its minimum are Windows'.
  const wsl = insideWsl(facts);
  const driver = wsl?.windowsDriverVersion ?? facts.gpu.driver.version;
  if (env.cuda && driver) {
    const driverOs = wsl ? 'windows' : facts.os;
    const release = findCudaRelease(catalog, env.cuda.majorMinor);
    const min = release ? driverMinFor(catalog, release, driverOs).min : undefined;
    if (min && compareDotted(driver, min) < 0) {
      const fits = newestCudaFor(catalog, driver, driverOs);
      const system = facts.toolkits.find((t) => t.readable && t.majorMinor && t.majorMinor !== env.cuda!.majorMinor);
      const ev = [
        T.condaDriverEvidence(driver, env.cuda.package, env.cuda.version),
        ...(system?.majorMinor && fits && compareDotted(system.majorMinor, fits) <= 0 ? [T.condaSystemRuns(system.version ?? system.majorMinor, system.path)] : []),
      ];
      const update = wsl ? wslDriverFix(wsl, min) : T.condaDriverUpdate(min, DRIVER_DOWNLOAD_PAGE);
      out.push(finding('conda-driver', 'fail', T.condaDriverOld(driver, env.cuda.majorMinor, min), ev, fits ? T.condaDriverFix(update, env.cuda.package, fits) : update));
    } else if (min) {
      out.push(finding('conda-driver', 'pass', T.condaDriverOk(driver, env.cuda.majorMinor, min)));
    }
  }

  // Same file names in the env and elsewhere on the search path: the env's copy wins.
  const shadowed = env.libraries
    .map((file) => ({ file, r: resolveLibrary(facts.search, file) }))
    .filter(({ r }) => r.winner && samePath(facts.os, r.winner.dir, env.libDir) && r.candidates.some((c) => !samePath(facts.os, c.dir, env.libDir)));
  if (shadowed.length) {
    const others = [...new Set(shadowed.flatMap(({ r }) => r.candidates.filter((c) => !samePath(facts.os, c.dir, env.libDir)).map((c) => c.dir)))];
    out.push(finding('conda-shadows', 'warn', T.condaShadows(shadowed.map((s) => s.file), env.libDir, others),
      shadowed.map(({ file, r }) => T.labelled(file, T.places(r.candidates.map((c, i) => `${i === 0 ? T.wins : ''}${T.placeVia(c.dir, T.via(c.via))}`)))),
      T.condaShadowsFix(env.packages.map((p) => p.name).join(' ') || 'cudatoolkit cudnn')));
  }
  return out;
}
