// globalSetup of the real-binaries lane: NVIDIA's Debian packages fetched and unpacked (both cached).
import { prepareLayers } from './packages.js';

export default function setup(): void {
  const t0 = Date.now();
  const done = prepareLayers();
  if (done.length) process.stdout.write(`test/real: ${done.join(', ')} in ${Math.round((Date.now() - t0) / 1000)} s\n`);
}
