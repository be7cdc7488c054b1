// The setup plan for the seed's Windows laptop, as data on Linux: a dry run through the real CLI
// with the fixture machine as host, asserting where things would go and what would be fetched.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { installerCommand } from '../../src/cuda/args.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { CUDA, seedLaptop } from '../fixtures/seed-laptop.js';

type Plan = { type: 'plan'; steps: { id: string; done: boolean; reason?: string; notReached?: true }[]; stop?: { step: string; code: string } };

describe("the plan for the seed's Windows laptop", () => {
  it('TF 2.3: CUDA 10.1 goes to …\\CUDA\\v10.1 beside 11.0, the installer is the win10 .exe, cuDNN 7.6.5 is the login-gated zip', async () => {
    const m = await seedLaptop();
    const r = await runCli(['install', '--tf', '2.3', '--dry-run', '--json', '--configure-env', 'no', '--cache-dir', await tempDir('cw-cache-')], { host: m.host });
    const plan = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((e) => e.type === 'plan') as Plan;
    // This Linux host has no reg.exe, so the saved PATH cannot be read: the plan honestly stops at the
    // loader-path step (exit 1), and only there — every step before it is planned as usual.
    expect(r.code, r.stderr).toBe(1);
    expect(plan.stop).toMatchObject({ step: 'configure-env', code: 'env-refused' });
    expect(plan.steps.filter((s) => s.notReached).map((s) => s.id)).toEqual(['verify']);
    const reason = (id: string) => plan.steps.find((s) => s.id === id)?.reason ?? '';
    expect(reason('preflight')).toBe('GPU, driver and compute capability look right');
    expect(reason('download-cuda')).toContain('cuda_10.1.243_426.00_win10.exe');
    expect(reason('install-cuda')).toContain(`into ${CUDA}\\v10.1`);
    expect(reason('obtain-cudnn')).toBe('cudnn-10.1-windows10-x64-v7.6.5.32.zip (behind a free NVIDIA login)');
    expect(reason('import-cudnn')).toContain(`${CUDA}\\v10.1`);
  });

  it('TF 2.10: the silent install names every component for 11.2 and never the display driver', () => {
    const catalog = builtinCatalog();
    const cmd = installerCommand({ os: 'windows', catalog, version: '11.2.2', installerFile: 'C:\\Users\\me\\Downloads\\cuda_11.2.2_461.33_win10.exe', toolkitDir: `${CUDA}\\v11.2`, tmpDir: 'C:\\Temp', logDir: 'C:\\Temp\\logs' });
    expect(cmd.file).toBe('C:\\Users\\me\\Downloads\\cuda_11.2.2_461.33_win10.exe');
    expect(cmd.args[0]).toBe('-s');
    expect(cmd.args).toEqual(expect.arrayContaining(['nvcc_11.2', 'cudart_11.2', 'cublas_11.2', 'cusolver_11.2', 'cupti_11.2']));
    expect(cmd.args.some((a) => /Display\.Driver/i.test(a))).toBe(false);
  });

  it('TF 2.11 on native Windows: the plan stops at the check and names WSL2', async () => {
    const m = await seedLaptop();
    const r = await runCli(['install', '--tf', '2.11', '--yes', '--configure-env', 'no', '--cache-dir', await tempDir('cw-cache-')], { host: m.host });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('has no GPU support on native Windows');
    expect(r.stdout).toMatch(/WSL2/);
  });
});
