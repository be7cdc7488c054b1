// The doctor's text for the WSL2 route, step by step, for a native-Windows user whose TensorFlow has no native GPU
// build (TF ≥ 2.11). Pure: the catalog and a TF version in, printable lines out (wizard and headless).
import { andCudaRequirement, driverMinFor, findCudaRelease, findTfRow, pythonRange, unknownTfVersion } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { WSL_LIBRARY_DIR, WSL_MIN_WINDOWS_BUILD } from '../platform.js';
import { wslText } from '../i18n/wsl.js';
import { majorMinor } from '../version.js';

export const WSL_VENV_DIR = '~/tf';

export function wslRouteSteps(catalog: Catalog, tf: string): string[] {
  const match = findTfRow(catalog, tf, 'linux');
  if (!match) throw unknownTfVersion(catalog, tf);
  const { row } = match;
  const version = match.viaMinorLine ? tf : row.version;
  const release = findCudaRelease(catalog, row.cuda);
  const driverMin = release ? driverMinFor(catalog, release, 'windows').min : undefined;
  const py = pythonRange(row);
  const andCuda = andCudaRequirement(catalog, tf);
  const driver = driverMin ? wslText.driverOrNewer(driverMin) : '';
  const tfLine = majorMinor(row.version);

  const steps = [
    wslText.stepWinver(WSL_MIN_WINDOWS_BUILD),
    wslText.stepInstall,
    wslText.stepUpdate,
    wslText.stepDriver(driver, row.cuda, WSL_LIBRARY_DIR),
    wslText.stepSmi,
    wslText.stepPython(tfLine, py.min, py.max),
    wslText.stepVenv(WSL_VENV_DIR),
  ];
  if (andCuda) {
    steps.push(wslText.stepAndCuda(andCuda));
  } else {
    steps.push(wslText.stepCudawiz(version, tfLine, row.cuda, row.cudnn), wslText.stepPip(version));
  }
  steps.push(wslText.stepCheck, wslText.stepDoctor(version));
  return steps;
}
