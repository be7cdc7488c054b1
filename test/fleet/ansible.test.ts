// An admin's fleet run: examples/ansible/cudawiz.yml over an inventory of three hosts (two are this
// machine, connection local; one is unreachable), pointed at a fixture NVIDIA mirror on loopback and a catalog overlay
// with the fixture installer's checksum, with every system path in a temp dir. The playbook must
// gather each host's `requirements`, `install --yes --json` and `doctor --json` reports into one
// table, whatever each command answered, and keep a host's failure from stopping the others.
// Needs Debian's ansible (`apt-get install -y ansible-core`): outside `npm test`, run by `npm run test:fleet`
// (vitest.fleet.config.ts), which .ci/run runs after installing it.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const playbook = path.join(repoRoot, 'examples', 'ansible', 'cudawiz.yml');
const installerPath = '/compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';

// A stand-in for NVIDIA's runfile: honours --silent --toolkit --toolkitpath=DIR and lays out a toolkit.
const fixtureInstaller = `#!/bin/sh
dir=/usr/local/cuda-10.1
for a in "$@"; do case "$a" in --toolkitpath=*|--installpath=*) dir="\${a#*=}";; esac; done
mkdir -p "$dir/bin" "$dir/lib64" || exit 1
printf '#!/bin/sh\\necho "Cuda compilation tools, release 10.1, V10.1.243"\\n' > "$dir/bin/nvcc" && chmod +x "$dir/bin/nvcc"
echo "CUDA Version 10.1.243" > "$dir/version.txt"
: > "$dir/lib64/libcudart.so.10.1"
`;

let work: string;
let mirror: Server;

interface Cell {
  state: string;
  detail: string;
  rc: number | null;
}
interface Row {
  host: string;
  tf: string;
  requirements: Cell;
  install: Cell;
  doctor: Cell;
  healthy: boolean;
}

beforeAll(async () => {
  const which = await execa('ansible-playbook', ['--version'], { reject: false });
  if (which.exitCode !== 0) throw new Error('ansible-playbook is not installed: apt-get install -y ansible-core (Debian), then run the tests again.');
  work = await tempDir('cudawiz-fleet-');
  mirror = createServer((req, res) => {
    if (req.url === installerPath) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': Buffer.byteLength(fixtureInstaller) });
      res.end(fixtureInstaller);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
}, 30_000);

afterAll(() => new Promise<void>((resolve) => (mirror ? mirror.close(() => resolve()) : resolve())));

async function runFleet() {
  const port = (mirror.address() as AddressInfo).port;
  const overlay = path.join(work, 'overlay.json');
  const sha256 = createHash('sha256').update(fixtureInstaller).digest('hex');
  await writeFile(overlay, JSON.stringify({ cuda: [{ version: '10.1.243', installers: { linux: { file: 'cuda_10.1.243_418.87.00_linux.run', url: `https://developer.download.nvidia.com${installerPath}`, sha256 } } }] }));
  // `cudawiz` as `npm i -g` would put it on a host: the built CLI behind a launcher.
  const bin = path.join(work, 'bin');
  await mkdir(bin, { recursive: true });
  await writeFile(path.join(bin, 'cudawiz'), `#!/bin/sh\nexec '${process.execPath}' '${builtCli}' "$@"\n`);
  await chmod(path.join(bin, 'cudawiz'), 0o755);
  for (const d of ['cuda-root', 'cache', 'reports', 'ansible-tmp']) await mkdir(path.join(work, d), { recursive: true });
  const args = ['--mirror', `http://127.0.0.1:${port}`, '--catalog', overlay, '--cuda-root', path.join(work, 'cuda-root'), '--cache-dir', path.join(work, 'cache')];
  const inventory = path.join(work, 'inventory.ini');
  await writeFile(
    inventory,
    [
      '[gpu_hosts]',
      'lab-pc-01 ansible_connection=local',
      'lab-pc-02 ansible_connection=local tf_version="2.99"',
      // Nothing listens on the discard port: this host is unreachable, as a powered-off PC would be.
      'lab-pc-03 ansible_connection=ssh ansible_host=127.0.0.1 ansible_port=9 ansible_ssh_common_args="-o ConnectTimeout=5 -o StrictHostKeyChecking=no"',
      '[gpu_hosts:vars]',
      `ansible_python_interpreter=${(await execa('which', ['python3'])).stdout.trim()}`,
      `cudawiz_bin=${path.join(bin, 'cudawiz')}`,
      `cudawiz_extra_args='${JSON.stringify(args)}'`,
      `report_dir=${path.join(work, 'reports')}`,
      '',
    ].join('\n'),
  );
  return execa('ansible-playbook', ['-i', inventory, playbook], {
    cwd: work,
    env: {
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: work,
      LANG: 'C.UTF-8',
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_LOCAL_TEMP: path.join(work, 'ansible-tmp'),
      ANSIBLE_REMOTE_TEMP: path.join(work, 'ansible-tmp'),
      ANSIBLE_RETRY_FILES_ENABLED: '0',
      ANSIBLE_LOCALHOST_WARNING: '0',
      ANSIBLE_INVENTORY_UNPARSED_WARNING: '0',
    },
    extendEnv: false,
    reject: false,
  });
}

describe('examples/ansible/cudawiz.yml over a two-host inventory', () => {
  let run: Awaited<ReturnType<typeof runFleet>>;
  let summary: { hosts: Row[]; healthy: string[]; unhealthy: string[] };
  let table: string;

  beforeAll(async () => {
    run = await runFleet();
    // 4: some host was unreachable, which ansible-playbook reports after finishing the others.
    if (run.exitCode !== 4) throw new Error(`ansible-playbook exited ${run.exitCode}:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`);
    summary = JSON.parse(await readFile(path.join(work, 'reports', 'summary.json'), 'utf8'));
    table = await readFile(path.join(work, 'reports', 'summary.md'), 'utf8');
  }, 120_000);

  it('finishes the play for the reachable hosts, even when one of them cannot be set up', () => {
    expect(run.stdout).toMatch(/lab-pc-01\s+: ok=\d+ .*failed=0/);
    expect(run.stdout).toMatch(/lab-pc-02\s+: ok=\d+ .*failed=0/);
    expect(run.stdout).toMatch(/lab-pc-03\s+: ok=\d+ .*unreachable=1/);
  });

  it('gathers one row per host, with what each command answered', () => {
    expect(summary.hosts.map((h) => h.host)).toEqual(['lab-pc-01', 'lab-pc-02', 'lab-pc-03']);
    const [a, b, c] = summary.hosts;
    expect(a.tf).toBe('2.3');
    expect(a.requirements).toMatchObject({ rc: 0, state: 'ok', detail: 'CUDA 10.1 · cuDNN 7.6' });
    expect(b.tf).toBe('2.99');
    expect(b.requirements).toMatchObject({ rc: 2, state: 'usage error' });
    expect(b.requirements.detail).toContain('2.99');
    expect(c.doctor).toMatchObject({ state: 'no report', rc: null });
    expect(c.healthy).toBe(false);
    for (const host of summary.hosts.slice(0, 2)) {
      for (const cell of [host.install, host.doctor]) {
        expect([0, 1, 2, 3]).toContain(cell.rc);
        expect(cell.detail.length).toBeGreaterThan(0);
      }
      expect(host.healthy).toBe(host.doctor.rc === 0);
    }
    expect([...summary.healthy, ...summary.unhealthy].sort()).toEqual(['lab-pc-01', 'lab-pc-02', 'lab-pc-03']);
  });

  it('prints the same table it writes to summary.md: a header, a line per host, and the count', () => {
    const lines = table.trim().split('\n');
    expect(lines[0]).toBe('| host | TF | needs | install | doctor |');
    expect(lines.filter((l) => /^\| lab-pc-0[123] \|/.test(l))).toHaveLength(3);
    expect(lines.find((l) => l.startsWith('| lab-pc-03 |'))).toContain('no report');
    expect(lines.at(-1)).toMatch(/^\d of 3 hosts healthy: not .*lab-pc-03/);
    expect(run.stdout).toContain('| lab-pc-01 | 2.3 | CUDA 10.1 · cuDNN 7.6 |');
  });
});
