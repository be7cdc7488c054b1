import { readFileSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { explainLog, hasProblems, recognisedNothing } from '../../src/doctor/explain.js';
import { repoRoot, runBuilt, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const logs = path.join(repoRoot, 'test', 'fixtures', 'logs');
const log = (name: string) => readFileSync(path.join(logs, name), 'utf8');
const catalog = builtinCatalog();
const explain = (name: string, os?: 'windows' | 'linux') => explainLog(catalog, log(name), { os });

describe('explainLog: real TensorFlow logs', () => {
  it("reads the seed's Windows TF 2.3 log: cudart64_101.dll means CUDA 10.1 exactly, once, with the install command", () => {
    const e = explain('windows-tf23-cudart101.log');
    expect(e).toMatchObject({ os: 'windows', cuda: '10.1', cudnn: null });
    expect(e.gpus).toEqual([{ name: 'GeForce GTX 1050 Ti', computeCapability: '6.1' }]);
    const cudart = e.findings.filter((f) => f.library === 'cudart64_101.dll');
    expect(cudart).toHaveLength(1); // TF logs it twice
    expect(cudart[0].meaning).toContain('CUDA 10.1 (no other CUDA version ships this file name)');
    expect(cudart[0].fix).toContain('Install CUDA 10.1 (cudawiz install --tf 2.3)');
    expect(cudart[0].fix).toContain('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1\\bin on PATH');
    expect(cudart[0].fix).toContain('nothing to uninstall');
    expect(e.findings.find((f) => f.library === 'cublas64_10.dll')?.meaning).toContain('CUDA 10.1–10.2');
  });

  it('reads the Linux spelling of the same problem: libcudart.so.10.1 and LD_LIBRARY_PATH', () => {
    const e = explain('linux-tf21-libcudart101.log');
    expect(e).toMatchObject({ os: 'linux', cuda: '10.1' });
    expect(e.findings).toHaveLength(1);
    expect(e.findings[0]).toMatchObject({ id: 'missing-toolkit-library', library: 'libcudart.so.10.1', severity: 'error' });
    expect(e.findings[0].fix).toContain('/usr/local/cuda-10.1/lib64 on LD_LIBRARY_PATH');
  });

  it('pins TF 2.4-era CUDA 11.0 from two library names: libcusparse.so.11 missing ∩ libcusolver.so.10 opened', () => {
    const e = explain('linux-tf24-cusparse11-cudnn8.log');
    expect(e.cuda).toBe('11.0');
    expect(e.cudnn).toBe('8');
    expect(e.findings.map((f) => f.library)).toEqual(['libcusparse.so.11', 'libcudnn.so.8']);
    // The TF the log's CUDA files pin (2.4) decides the cuDNN build, and the fix ends with the command (#40).
    expect(e.findings[1].fix).toMatch(/^TensorFlow 2\.4 needs cuDNN 8\.0 for CUDA 11\.0\. Run cudawiz repair --tf 2\.4 /);
  });

  it('reads the TF 1.14 "Could not dlopen library" phrasing and takes the CUDA from the libraries that did open', () => {
    const e = explain('linux-tf114-dlopen-libcudnn7.log');
    expect(e).toMatchObject({ cuda: '10.0', cudnn: '7' });
    expect(e.findings).toHaveLength(1);
    expect(e.findings[0]).toMatchObject({ id: 'missing-cudnn', library: 'libcudnn.so.7' });
    expect(e.findings[0].meaning).toContain('cuDNN 7');
  });

  it('says "any CUDA 11.x" for cudart64_110.dll, which every 11.x toolkit ships, with Jupyter noise on the same line', () => {
    const e = explain('windows-tf210-cudart110-rtx4060.log');
    expect(e).toMatchObject({ os: 'windows', cuda: '11' });
    expect(e.gpus[0]).toEqual({ name: 'NVIDIA GeForce RTX 4060 Laptop GPU', computeCapability: '8.9' });
    expect(e.findings).toHaveLength(1);
    expect(e.findings[0].meaning).toContain('CUDA 11.0–11.8');
    expect(e.findings[0].fix).toMatch(/^Install CUDA 11\.\d/);
  });

  it('tells a library that exists from one whose dependency is missing (libcusolver.so.11 needs CUDA 12 nvJitLink)', () => {
    const e = explain('linux-cusolver-needs-nvjitlink.log');
    expect(e.findings).toHaveLength(1); // "Cannot dlopen some GPU libraries" adds nothing when the file is named
    expect(e.findings[0]).toMatchObject({ id: 'missing-dependency', library: 'libcusolver.so.11' });
    expect(e.findings[0].meaning).toContain('libnvJitLink.so.12');
    expect(e.findings[0].meaning).toContain('CUDA 12');
  });

  it('sees the driver behind a cuDNN 8 part that cannot load libcuda.so, and reports it once', () => {
    const e = explain('linux-cudnn8-part-needs-libcuda.log');
    expect(e.findings).toHaveLength(1);
    expect(e.findings[0]).toMatchObject({ id: 'missing-driver', library: 'libcudnn_cnn_infer.so.8' });
    expect(e.findings[0].fix).toContain('NVIDIA driver');
  });

  it('reads the newer TF "Could not find cuda drivers" line as the CUDA runtime it is (and leaves the TensorRT warning alone)', () => {
    const e = explain('linux-tf213-no-cuda-drivers.log');
    // tsl's cudart_stub.cc prints it when GetCudaRuntimeDsoHandle fails: libcudart, not libcuda.
    expect(e.findings.map((f) => f.id)).toEqual(['missing-cuda-runtime']);
    expect(e.findings[0].meaning).toContain('could not load the CUDA runtime (libcudart.so)');
    expect(e.findings[0].fix).toContain('pip install "tensorflow[and-cuda]"');
  });

  it('reads a cuDNN mismatch in both eras: "8.7.0 … 8.9.4" and the 2016 integers "5103 … 4007"', () => {
    const xla = explain('cudnn-mismatch-xla.log');
    expect(xla.cudnn).toBe('8.9');
    expect(xla.findings[0].meaning).toBe(
      'TensorFlow was built with cuDNN 8.9.4 but loaded cuDNN 8.7.0; it needs the same major and an equal or newer minor (this one is older).',
    );
    expect(xla.findings[0].fix).toMatch(/^Install cuDNN 8\.9 or a newer 8\.x/);
    const old = explain('cudnn-mismatch-2016.log');
    expect(old.cudnn).toBe('4.0');
    expect(old.findings[0].meaning).toContain('built with cuDNN 4.0.7 but loaded cuDNN 5.1.3');
  });

  it('explains zlibwapi.dll (cuDNN ≥ 8.3 on Windows) and the Visual C++ runtime', () => {
    const z = explain('windows-zlibwapi.log');
    expect(z).toMatchObject({ os: 'windows', cudnn: '8' });
    expect(z.findings[0]).toMatchObject({ id: 'missing-zlib', library: 'zlibwapi.dll' });
    expect(z.findings[0].fix).toContain('64-bit zlibwapi.dll');
    const m = explain('windows-msvcp140_1.log');
    expect(m.os).toBe('windows');
    expect(m.findings[0]).toMatchObject({ id: 'missing-msvc-runtime', library: 'msvcp140_1.dll' });
    expect(m.findings[0].fix).toContain('Visual C++ Redistributable');
  });

  it('explains a driver older than the CUDA runtime, on a Tesla P100 named in the old "major: 6 minor: 0" form', () => {
    const e = explain('linux-driver-insufficient.log');
    expect(e.gpus).toEqual([{ name: 'Tesla P100-SXM2-16GB', computeCapability: '6.0' }]);
    expect(e.findings.map((f) => f.id)).toEqual(['driver-too-old']);
    expect(e.findings[0].fix).toContain('Update the NVIDIA driver');
  });

  it("names CUDA 10.1's driver minimum when the log shows which runtime TF opened", () => {
    const opened = log('linux-tf23-kernel-image-invalid.log').split('\n')[1]; // "Successfully opened … libcudart.so.10.1"
    const e = explainLog(catalog, `${opened}\n${log('linux-driver-insufficient.log')}`);
    expect(e.cuda).toBe('10.1');
    expect(e.findings[0].fix).toMatch(/^Update the NVIDIA driver to 418\.[\d.]+ or newer \(CUDA 10\.1's minimum on Linux\)/);
  });

  it('explains "device kernel image is invalid" as a wheel without code for this GPU', () => {
    const e = explain('linux-tf23-kernel-image-invalid.log');
    expect(e.os).toBe('linux');
    expect(e.findings.map((f) => f.id)).toEqual(['no-code-for-gpu']);
    expect(e.findings[0].meaning).toContain('no machine code or compatible PTX');
  });

  it('names the GPU and the newest TF with machine code for it when the log shows both (GTX 960M, 5.0, on TF 2.3)', () => {
    const e = explain('linux-tf23-gtx960m-kernel-image.log');
    expect(e).toMatchObject({ os: 'linux', cuda: '10.1' });
    expect(e.findings).toHaveLength(1);
    expect(e.findings[0].meaning).toContain('GeForce GTX 960M (compute capability 5.0)');
    expect(e.findings[0].fix).toMatch(/^Use TensorFlow 2\.1[67], the newest line with machine code for compute capability 5\.0/);
  });

  it('reads TF 1.x "Couldn\'t open CUDA library" lines, including an unversioned libcudnn.so', () => {
    const e = explain('tf1-couldnt-open.log');
    expect(e.findings.map((f) => [f.id, f.library])).toEqual([
      ['missing-cudnn', 'libcudnn.so'],
      ['missing-cupti', 'libcupti.so.8.0'],
    ]);
    expect(e.cudnn).toBeNull();
    expect(e.findings[0].fix).toContain('cudawiz requirements --tf YOUR_TF');
    expect(e.findings[1].meaning).toContain("CUDA 8.0's CUPTI profiler library");
  });

  it('turns a bare "Cannot dlopen some GPU libraries" into a way to find out which', () => {
    const e = explain('linux-cannot-dlopen-unnamed.log');
    expect(e.findings.map((f) => f.id)).toEqual(['some-libraries-missing']);
    expect(e.findings[0].fix).toContain('cudawiz doctor');
  });

  it('finds nothing wrong in a log where TensorFlow opened every library', () => {
    const e = explain('linux-tf24-healthy.log');
    expect(e.findings).toEqual([]);
    expect(hasProblems(e)).toBe(false);
    expect(recognisedNothing(e)).toBe(false);
  });

  it('recognises nothing in pip output or an empty log', () => {
    expect(recognisedNothing(explain('unrelated-pip.log'))).toBe(true);
    expect(recognisedNothing(explainLog(catalog, ''))).toBe(true);
  });

  it('keeps TensorRT and CUPTI notes apart from problems', () => {
    const e = explainLog(
      catalog,
      [
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared object file: No such file or directory",
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:59] Could not load dynamic library 'cupti64_101.dll'; dlerror: cupti64_101.dll not found",
      ].join('\n'),
    );
    expect(e.findings.map((f) => [f.id, f.severity])).toEqual([
      ['missing-tensorrt', 'info'],
      ['missing-cupti', 'info'],
    ]);
    expect(e.findings[1].meaning).toContain('CUDA 10.1');
    expect(hasProblems(e)).toBe(false);
  });
});

describe('cudawiz explain', () => {
  it('prints one JSON document {cuda, cudnn, findings} for a Windows log and exits 1', async () => {
    const r = await runCli(['explain', path.join(logs, 'windows-tf23-cudart101.log'), '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ cuda: '10.1', cudnn: null, os: 'windows', recognised: true });
    expect(doc.findings[0]).toMatchObject({ library: 'cudart64_101.dll' });
    expect(Object.keys(doc.findings[0])).toEqual(expect.arrayContaining(['meaning', 'fix']));
  });

  it('reads a CRLF log from standard input (-) and says what to do in plain lines', async () => {
    const text = log('linux-tf24-cusparse11-cudnn8.log').replace(/\n/g, '\r\n');
    const r = await runCli(['explain', '-'], { stdin: text });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('it asks for CUDA 11.0 and cuDNN 8');
    expect(r.stdout).toMatch(/fix: TensorFlow 2\.4 needs cuDNN 8\.0 for CUDA 11\.0/);
  });

  it('exits 0 for a healthy log and 1 with "Nothing recognised" for an unrelated one', async () => {
    const ok = await runCli(['explain', path.join(logs, 'linux-tf24-healthy.log')]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('No problem in this log');
    const none = await runCli(['explain', path.join(logs, 'unrelated-pip.log')]);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('Nothing recognised');
    const empty = await runCli(['explain', '--json'], { stdin: '' });
    expect(empty.code).toBe(1);
    expect(JSON.parse(empty.stdout)).toMatchObject({ recognised: false, findings: [] });
  });

  it('--os windows overrides the guess for a log that names no file', async () => {
    const r = await runCli(['explain', path.join(logs, 'linux-tf213-no-cuda-drivers.log'), '--os', 'windows', '--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ os: 'windows', wsl: false });
    expect(doc.findings[0].meaning).toContain('cudart64_*.dll');
    expect(doc.findings[0].fix).toContain('TensorFlow 2.10 and older: install the CUDA toolkit');
  });

  it('refuses a log that is not there (exit 2, names the file) and leaves the folder as it was', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'other.txt'), 'x');
    const r = await runCli(['explain', path.join(dir, 'tf.log')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Cannot read the log "${path.join(dir, 'tf.log')}": no such file.`);
    const d = await runCli(['explain', dir]);
    expect(d.code).toBe(2);
    expect(d.stderr).toContain('it is a folder');
    expect(await readdir(dir)).toEqual(['other.txt']);
  });

  it('the built CLI reads a piped log', async () => {
    const r = await runBuilt(['explain', '--json'], { input: log('windows-zlibwapi.log') });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings[0].library).toBe('zlibwapi.dll');
  });
});
