// A box: this machine as it would be with some of NVIDIA's Debian packages installed, in a private mount
// namespace (unshare -m) where overlayfs puts the unpacked packages over /usr, /etc and /var and a
// throw-away layer over /dev (the real nvidia-smi, run as root, creates /dev/nvidiactl). Inside, dpkg's
// status gets the packages' records, nvidia-alternative's own maintainer script makes its links, ldconfig
// rebuilds the cache; then the built cudawiz, the real nvidia-smi and a ctypes dlopen probe run there.
// Everything written inside lands in the box's upper layers, in a temp folder: nothing outside changes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../helpers/cli.js';
import { CACHE, layerRoot, layerStatus, type Layer } from './packages.js';

export interface BoxSpec {
  layers: Layer[];
  /** Shell lines run inside as root after the packages are in place and before ldconfig. */
  setup?: string;
  /** PATH for cudawiz inside (default: the standard root PATH). */
  path?: string;
  /** cudawiz's arguments, run twice: as given, and with --json. */
  doctor: string[];
  /** Run cudawiz (both runs and the `after` lines) as this user instead of root: `nobody`, with a home of its own. */
  asNobody?: boolean;
  /** The built CLI to run (default the checkout's dist/cli.js; for nobody, a copy it can read: otherUserCli()). */
  cli?: string;
  /** Run the --json one first (a command that changes the machine: its JSON is then the plan as first made, its text the second run's). */
  jsonFirst?: boolean;
  /** Shell lines run inside at the end; their output is BoxResult.after. */
  after?: string;
}

export interface DlopenResult {
  /** Library → the file the real loader mapped (from /proc/self/maps), or the dlopen error. */
  loaded: Record<string, string | { error: string }>;
  cuDriverGetVersion?: { rc: number; version: number };
  cuInit?: number;
}

export interface BoxResult {
  doctor: { code: number; text: string };
  /** --json's output: the report where it is one object (doctor), and every JSON line (install, repair stream events). */
  json: { code: number; lines: Record<string, unknown>[]; report: { driver: { version: string | null; source: string | null }; toolkits: { path: string; version: string | null; missing: string[] }[]; findings: { id: string; status: string; title: string; evidence: string[]; fix: string | null }[] } };
  smi?: { code: number; text: string };
  dlopen: DlopenResult;
  after: string;
  /** /dev/nvidiactl inside the box after nvidia-smi ran. */
  nvidiactlInside: boolean;
  seconds: number;
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** The prefix that runs a command as nobody (uid 65534) with its own home, as a user without administrator rights. */
const AS_NOBODY = 'setpriv --reuid=65534 --regid=65534 --clear-groups ';

const PROBE = `
import ctypes, json, os, sys
libs = sys.argv[1:]
out = {"loaded": {}}
handles = {}
for name in libs:
    try:
        handles[name] = ctypes.CDLL(name)
    except OSError as e:
        out["loaded"][name] = {"error": str(e)}
maps = open("/proc/self/maps").read().split("\\n")
for name in handles:
    stem = name.split(".so")[0] + ".so"
    paths = sorted({l.split()[-1] for l in maps if len(l.split()) >= 6 and os.path.basename(l.split()[-1]).startswith(stem)})
    out["loaded"][name] = paths[0] if paths else {"error": "not in /proc/self/maps"}
if "libcuda.so.1" in handles:
    v = ctypes.c_int(0)
    rc = handles["libcuda.so.1"].cuDriverGetVersion(ctypes.byref(v))
    out["cuDriverGetVersion"] = {"rc": rc, "version": v.value}
    out["cuInit"] = handles["libcuda.so.1"].cuInit(0)
print(json.dumps(out))
`;

export const PROBED_LIBRARIES = ['libcudart.so.11.0', 'libcublas.so.11', 'libcublasLt.so.11', 'libcufft.so.10', 'libcurand.so.10', 'libcusolver.so.11', 'libcusparse.so.11', 'libcuda.so.1'];

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function parseJson(code: number, text: string): BoxResult['json'] {
  try {
    const report = JSON.parse(text);
    return { code, lines: [report], report };
  } catch {
    const lines = text.split('\n').filter((l) => l.trim().startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    return { code, lines, report: { driver: { version: null, source: null }, toolkits: [], findings: [] } };
  }
}

/** The two runs of cudawiz in the box: as given and with --json, in the order the spec asks. */
function runs(spec: BoxSpec, out: string): string[] {
  const as = spec.asNobody ? `cd "$HOME" && ${AS_NOBODY}` : '';
  const text = `(${as}env PATH=${q(spec.path ?? DEFAULT_PATH)} node "$CUDAWIZ" ${spec.doctor.map(q).join(' ')}) > ${out}/doctor.txt 2>&1; echo $? > ${out}/doctor.rc`;
  const json = `(${as}env PATH=${q(spec.path ?? DEFAULT_PATH)} node "$CUDAWIZ" ${spec.doctor.map(q).join(' ')} --json) > ${out}/doctor.json 2>${out}/doctor.json.err; echo $? > ${out}/json.rc`;
  return spec.jsonFirst ? [json, text] : [text, json];
}

interface Prepared {
  dir: string;
  out: string;
  t0: number;
  args: string[];
}

function prepareBox(spec: BoxSpec): Prepared {
  const t0 = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cudawiz-real-'));
  const out = path.join(dir, 'out');
  mkdirSync(out);
  const mounts = ['usr', 'etc', 'var', 'dev'].map((top) => {
    const lowers = spec.layers.map((l) => path.join(layerRoot(l), top)).filter((d) => top !== 'dev' && existsSync(d));
    mkdirSync(path.join(dir, top, 'upper'), { recursive: true });
    mkdirSync(path.join(dir, top, 'work'), { recursive: true });
    return `mount -t overlay overlay -o ${q(`lowerdir=${[...lowers, `/${top}`].join(':')},upperdir=${dir}/${top}/upper,workdir=${dir}/${top}/work`)} /${top}`;
  });
  writeFileSync(path.join(dir, 'probe.py'), PROBE);
  const script = [
    'set -u',
    ...mounts.map((m) => `${m} || exit 97`),
    ...spec.layers.map((l) => `cat ${q(layerStatus(l))} >> /var/lib/dpkg/status`),
    // nvidia-alternative's postinst, as dpkg's trigger runs it: update-alternatives makes /usr/bin/nvidia-smi, libcuda.so.1 …
    spec.layers.includes('driver') ? `sh ${q(path.join(CACHE, 'roots', 'nvidia-alternative.control', 'postinst'))} triggered >/dev/null 2>&1 || true` : '',
    spec.setup ?? '',
    'ldconfig',
    `cd ${q(repoRoot)}`,
    `export CUDAWIZ=${q(spec.cli ?? path.join(repoRoot, 'dist/cli.js'))}`,
    // cudawiz's own files (logs, caches) go to a throw-away home, never root's real one.
    `mkdir -p ${dir}/home; export HOME=${dir}/home XDG_CACHE_HOME=${dir}/home/.cache XDG_DATA_HOME=${dir}/home/.local/share SHELL=/bin/bash`,
    spec.asNobody ? `chown 65534:65534 ${dir}/home ${out} && chmod 755 ${dir} ${dir}/out` : '',
    ...runs(spec, out),
    `if [ -e /usr/bin/nvidia-smi ]; then nvidia-smi > ${out}/smi.txt 2>&1; echo $? > ${out}/smi.rc; fi`,
    `/usr/bin/python3 ${dir}/probe.py ${PROBED_LIBRARIES.join(' ')} > ${out}/dlopen.json 2>${out}/dlopen.err`,
    `if [ -e /dev/nvidiactl ]; then echo yes > ${out}/nvidiactl; fi`,
    spec.after ? (spec.asNobody ? `printf '%s\\n' ${q(spec.after)} > ${out}/after.sh && (cd "$HOME" && ${AS_NOBODY}bash ${out}/after.sh) > ${out}/after.txt 2>&1` : `{\n${spec.after}\n} > ${out}/after.txt 2>&1`) : '',
  ].filter(Boolean).join('\n');
  writeFileSync(path.join(dir, 'box.sh'), script);
  return { dir, out, t0, args: ['-m', '--propagation', 'private', 'bash', path.join(dir, 'box.sh')] };
}

function collect({ dir, out, t0 }: Prepared, r: { status: number | null; stderr: string }): BoxResult {
  const read = (f: string) => (existsSync(path.join(out, f)) ? readFileSync(path.join(out, f), 'utf8') : '');
  try {
    if (r.status !== 0 && !read('doctor.rc')) throw new Error(`box failed (${r.status}): ${r.stderr}`);
    const result: BoxResult = {
      doctor: { code: Number(read('doctor.rc')), text: read('doctor.txt') },
      json: parseJson(Number(read('json.rc')), read('doctor.json')),
      ...(read('smi.rc') ? { smi: { code: Number(read('smi.rc')), text: read('smi.txt') } } : {}),
      dlopen: JSON.parse(read('dlopen.json') || '{"loaded":{}}') as DlopenResult,
      after: read('after.txt'),
      nvidiactlInside: read('nvidiactl').trim() === 'yes',
      seconds: (Date.now() - t0) / 1000,
    };
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function runBox(spec: BoxSpec): BoxResult {
  const box = prepareBox(spec);
  return collect(box, spawnSync('unshare', box.args, { encoding: 'utf8', timeout: 170_000 }));
}

/** runBox without blocking this process: a loopback server the test runs (a mirror) answers the box meanwhile. */
export async function runBoxAsync(spec: BoxSpec): Promise<BoxResult> {
  const box = prepareBox(spec);
  const child = spawn('unshare', box.args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 170_000 });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return collect(box, { status, stderr });
}
