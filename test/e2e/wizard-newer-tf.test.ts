// The built wizard in a real terminal on a laptop whose pip has a TensorFlow newer than the catalog
// (normal a few months after a release): Repair leads to what still works, not to a stack trace.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { compareDotted, majorMinor } from '../../src/version.js';
import { builtCli } from '../helpers/cli.js';
import { installByHand, laptop, type Laptop } from '../helpers/laptop.js';
import { tempDir } from '../helpers/tmp.js';
import { openTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
let machine: Laptop | undefined;
afterEach(async () => {
  await term?.kill();
  await machine?.mirror.close();
  term = undefined;
  machine = undefined;
});

const newest = [...builtinCatalog().tensorflow.linux].sort((a, b) => compareDotted(b.version, a.version))[0];
const end = majorMinor(newest.version);
const next = `${end.split('.')[0]}.${Number(end.split('.')[1]) + 1}.0`;

/** A site dir with pip metadata and a module for TensorFlow `version`, as pip leaves them. */
async function pipTensorflow(version: string): Promise<string> {
  const site = await tempDir('cw-site-');
  await mkdir(path.join(site, `tensorflow-${version}.dist-info`));
  await writeFile(path.join(site, `tensorflow-${version}.dist-info`, 'METADATA'), `Metadata-Version: 2.1\nName: tensorflow\nVersion: ${version}\n`);
  await mkdir(path.join(site, 'tensorflow'));
  await writeFile(path.join(site, 'tensorflow', '__init__.py'), `__version__ = "${version}"\n`);
  return site;
}

describe('the wizard with a TensorFlow newer than the catalog', () => {
  it(`pip has ${next}: the scan says so, Repair shows what still works, and the newest row with the same CUDA leads to a plan`, async () => {
    machine = await laptop(undefined, { pythonPath: await pipTensorflow(next) });
    await installByHand(machine, 'cuda_11.0.3_450.51.06_linux.run', '11.0', 'libcublas.so.11 libcufft.so.10 libcurand.so.10 libcusolver.so.10 libcusparse.so.11');
    term = await openTerminal([process.execPath, builtCli, ...machine.globals], { env: machine.env });
    let screen = await term.waitFor('Repair it', 30_000);
    expect(screen.replace(/\n/g, ' ')).toMatch(new RegExp(`catalog ends at ${end.replace('.', '\\.')}; TensorFlow ${next.replace(/\./g, '\\.')} came later`));
    await term.keys('Enter');
    screen = await term.waitFor('What still works:', 30_000);
    const flat = screen.replace(/\n/g, ' ').replace(/\s+/g, ' ');
    expect(flat).toContain(`tensorflow[and-cuda]==${next}`);
    expect(flat).toContain('--catalog FILE');
    expect(screen).toMatch(new RegExp(`❯ Set up for TensorFlow ${newest.version.replace(/\./g, '\\.')}`));
    await term.keys('Enter');
    // 2.14+ on Linux: the wizard asks how to get CUDA — the redist archives first (CUDA 12 has them
    // since 12.9.1 is in the catalog), then pip, then the system toolkit, which this walk takes.
    screen = await term.waitFor(`How should TensorFlow ${newest.version} get CUDA and cuDNN?`, 30_000);
    // No "small download" beside 3.0 GiB: the label claims a size only where the sizes prove it (#40).
    expect(screen).toMatch(/❯ NVIDIA's per-component CUDA archives \(no admin\) — recommended/);
    expect(screen).not.toContain('small download');
    // What each route downloads, under the choice, as `requirements` says it (the real wizard had dropped these lines).
    expect(screen).toMatch(/^ {2}redist: \d+ files, /m);
    expect(screen).toMatch(/^ {2}toolkit: \d+ files, /m);
    await term.keys('Down');
    await term.waitFor(/❯ pip wheels/);
    await term.keys('Down');
    await term.waitFor(/❯ a system CUDA toolkit/);
    await term.keys('Enter');
    screen = await term.waitFor('Go ahead?', 30_000);
    expect(screen).toContain(`The plan for TensorFlow ${newest.version}`);
    expect(screen).not.toMatch(/Unknown TensorFlow version|\bat .*\.js:\d+/);
    await term.keys('C-c');
    await term.waitFor('Stop now?');
    await term.keys('C-c');
    expect(await term.exitCode()).toBe(130);
  });
});
