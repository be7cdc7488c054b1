// The doctor's text for the WSL2 route, step by step, for a native-Windows user whose TensorFlow has no native GPU
// build (TF ≥ 2.11). Pure: the catalog and a TF version in, printable lines out (wizard and headless).
import { andCudaRequirement, driverMinFor, findCudaRelease, findTfRow, pythonRange, unknownTfVersion } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { WSL_LIBRARY_DIR, WSL_MIN_WINDOWS_BUILD } from '../platform.js';
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
  const driver = driverMin ? ` ${driverMin} or newer` : '';

  const steps = [
    `Check Windows: run \`winver\`; WSL2 with CUDA needs Windows 10 21H2 (build ${WSL_MIN_WINDOWS_BUILD}) or newer, or Windows 11.`,
    'In PowerShell as Administrator: wsl --install -d Ubuntu   (then restart Windows when asked, and open "Ubuntu" from the Start menu to create your Linux user).',
    'If WSL was already installed: wsl --update, and check `wsl -l -v` shows VERSION 2 (else: wsl --set-version Ubuntu 2).',
    `Install the NVIDIA driver on Windows${driver} (CUDA ${row.cuda} needs it) from https://www.nvidia.com/Download/index.aspx. Never install a Linux NVIDIA driver inside WSL: WSL lends the Windows driver to Linux through ${WSL_LIBRARY_DIR}.`,
    'Inside Ubuntu, check the GPU: nvidia-smi   ("Driver Version" there is the Windows driver\'s number).',
    `Inside Ubuntu: sudo apt update && sudo apt install -y python3-venv python3-pip   (TensorFlow ${majorMinor(row.version)} needs Python ${py.min}–${py.max}).`,
    `Inside Ubuntu: python3 -m venv ${WSL_VENV_DIR} && source ${WSL_VENV_DIR}/bin/activate`,
  ];
  if (andCuda) {
    steps.push(`Inside Ubuntu: pip install "${andCuda}"   (CUDA and cuDNN come as Python wheels; nothing else to install).`);
  } else {
    steps.push(
      `Inside Ubuntu: install cudawiz and run: cudawiz install --tf ${version}   (TensorFlow ${majorMinor(row.version)} predates tensorflow[and-cuda]: it installs the CUDA ${row.cuda} toolkit without a driver and cuDNN ${row.cudnn}).`,
      `Inside Ubuntu: pip install "tensorflow==${version}"`,
    );
  }
  steps.push(
    'Check: python -c "import tensorflow as tf; print(tf.config.list_physical_devices(\'GPU\'))"   (a list with one GPU or more means it works).',
    `If it lists none: run \`cudawiz doctor --tf ${version}\` inside Ubuntu.`,
  );
  return steps;
}
