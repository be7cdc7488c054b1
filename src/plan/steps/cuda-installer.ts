// The installer route's CUDA: NVIDIA's installer downloaded (verified), then run into the root.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { findCudaRelease } from '../../catalog/queries.js';
import { installToolkit } from '../../cuda/install.js';
import { scratchDirWithRoom, scratchSpaceNeeded } from '../../cuda/scratch.js';
import { toolkitState } from '../../cuda/toolkit-state.js';
import { CudawizError } from '../../errors.js';
import { cudaInstallerTarget } from '../../fetch/index.js';
import { formatBytes, formatSize } from '../../format.js';
import { cliText } from '../../i18n/cli.js';
import { installerNeedsAdministrator } from '../../platform.js';
import { stepsText } from '../../i18n/steps.js';
import type { PlanContext } from '../context.js';
import type { Step } from '../runner.js';
import { fetchFile } from './download.js';
import { envPlaces } from '../../env/index.js';
import { journalInstallerToolkit } from '../../env/installer-toolkit.js';

export async function toolkitComplete(ctx: PlanContext): Promise<boolean> {
  return (await toolkitState(ctx.os, ctx.catalog, ctx.toolkitDir, ctx.cuda)).state === 'complete';
}

export const downloadCudaStep: Step<PlanContext> = {
  id: 'download-cuda',
  get title() {
    return stepsText.downloadCuda;
  },
  check: async (ctx) => {
    if (await toolkitComplete(ctx)) return { done: true, reason: stepsText.cudaInstalledAt(ctx.cuda, ctx.toolkitDir) };
    const i = ctx.req.cudaInstaller;
    return { done: false, reason: i ? stepsText.checkedAgainst(i.file + cliText.inBrackets(formatSize(i.size ?? ctx.serverSizes?.get(i.file))), Boolean(i.sha256)) : undefined };
  },
  async run(ctx, io) {
    const target = cudaInstallerTarget(ctx.catalog, ctx.cuda, ctx.os);
    const r = await fetchFile(ctx, io, target);
    ctx.installerFile = r.path;
    ctx.installerSha256 = r.sha256;
    return {
      summary: r.fromCache ? stepsText.fromCache(target.file) : stepsText.checksumFrom(target.file, r.source),
      evidence: [...r.notices, `sha256 ${r.sha256}`],
    };
  },
};

export const installCudaStep: Step<PlanContext> = {
  id: 'install-cuda',
  get title() {
    return stepsText.installCuda;
  },
  check: async (ctx) =>
    (await toolkitComplete(ctx))
      ? { done: true, reason: stepsText.nvccIn(ctx.toolkitDir) }
      : { done: false, reason: (installerNeedsAdministrator(ctx.os) ? stepsText.toolkitIntoAdmin : stepsText.toolkitInto)(ctx.toolkitDir) },
  async run(ctx, io) {
    const release = findCudaRelease(ctx.catalog, ctx.cuda, ctx.os);
    if (!release || !ctx.installerFile) throw new CudawizError(stepsText.noInstallerDownloaded(ctx.cuda), { fix: stepsText.runAgain });
    const { size } = await stat(ctx.installerFile);
    const scratch = await scratchDirWithRoom(ctx.os, [path.join(ctx.cacheDir, 'scratch'), ctx.root], scratchSpaceNeeded(size));
    if (!scratch) throw new CudawizError(stepsText.noScratchSpace(formatBytes(scratchSpaceNeeded(size))), { fix: stepsText.noScratchSpaceFix });
    // Journalled before NVIDIA's installer runs, so rollback can offer NVIDIA's uninstaller for it (#39.4).
    const journal = (await toolkitComplete(ctx)) ? undefined : await journalInstallerToolkit(envPlaces({ host: ctx.host, root: ctx.host.fsRoot }).journalFile, {
      toolkitDir: ctx.toolkitDir,
      installerFile: ctx.installerFile,
      version: release.version,
      sha256: ctx.installerSha256,
      why: stepsText.installCuda,
    }, ctx.os);
    const r = await installToolkit({
      os: ctx.os,
      catalog: ctx.catalog,
      installerFile: ctx.installerFile,
      release,
      root: ctx.root,
      tmpDir: scratch.dir,
      logDir: ctx.logDir,
      signal: io.signal,
      onLog: io.log,
      permission: { host: ctx.host, command: ctx.command },
      overrideCompilerCheck: ctx.overrideCompilerCheck,
      verifiedSha256: ctx.installerSha256,
      // The machine's environment, as every other program the plan runs gets it.
      env: ctx.host.env,
    }).catch(async (error: unknown) => {
      await journal?.failed((await toolkitState(ctx.os, ctx.catalog, ctx.toolkitDir, ctx.cuda)).state === 'absent');
      throw error;
    });
    if (!r.skipped) await journal?.installed();
    else await journal?.failed(true);
    return { summary: r.skipped ? stepsText.alreadyInstalled : stepsText.cudaIn(release.version, r.toolkitDir), evidence: [r.warning, r.logFile && stepsText.installerLog(r.logFile)].filter((x): x is string => Boolean(x)) };
  },
};
