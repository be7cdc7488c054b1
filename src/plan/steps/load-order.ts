// Repair's load-order steps: the right folders first for this user's new shells (a journalled env script
// and one rc line; Windows: the saved PATH), and cudawiz's own loader files in /etc/ld.so.conf.d for every
// program (an older run's file taken away, cuDNN's own folder beside a distro's CUDA). Each asks consent
// through the one consent step (--configure-env).
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { remediesText as R } from '../../i18n/remedies.js';
import { doctorText as T } from '../../i18n/doctor.js';
import type { Finding } from '../../doctor/finding.js';
import { applyEnvChanges, envLinesToRunYourself, envPlaces, loadOrderExportLine, prepareLoadOrder } from '../../env/index.js';
import { confDirs, fileHead, sudoWriteConfLine } from '../../env/linux-plan.js';
import type { EnvChange } from '../../env/types.js';
import { CudawizError, EXIT } from '../../errors.js';
import { cudnnLdSoConfFileName, LINUX_LD_SO_CONF_DIR, toolkitLibraryDir } from '../../platform.js';
import { untrustedLoaderFolder } from '../../trust/loader-folder.js';
import type { PlanContext } from '../context.js';
import type { Step } from '../runner.js';
import { consentStep } from './consent.js';
import { envPlanFor } from './env.js';
import { titled } from './repair-stop.js';

/**
 * The right folders first for this user's new shells (Linux: a journalled env script and one rc line;
 * Windows: the saved PATH with the right toolkit's bin first, as the toolkit route sets it).
 */
export function loadOrderStep(dirs: string[], fixes: Finding[]): Step<PlanContext> {
  const plan = async (ctx: PlanContext) => {
    if (ctx.os === 'windows') {
      // The right folder is a toolkit's bin: that toolkit goes first on the saved PATH. Planned as the
      // env step plans it — knowing the machine's other toolkits (which ones shadow it) and whether
      // this process is elevated — since a shadowing folder on the Machine PATH is beaten only there:
      // new processes get the User PATH after the Machine one.
      return envPlanFor(ctx, { toolkitDir: path.win32.dirname(dirs[0] ?? toolkitLibraryDir(ctx.os, ctx.toolkitDir)), rerunCommand: ctx.command });
    }
    return prepareLoadOrder({ host: ctx.host, tf: ctx.tf, cuda: ctx.cuda, dirs, root: ctx.host.fsRoot });
  };
  return consentStep({
    id: 'load-order',
    title: titled(R.loadOrderStep(dirs.join(', ')), fixes),
    consent: 'configureEnv',
    async check(ctx) {
      const { plan: p } = await plan(ctx);
      if (p.refusals.length) return { done: false, reason: p.refusals[0].reason };
      return p.changes.length === 0 && p.manual.length === 0 ? { done: true, reason: R.loadOrderNothing } : { done: false, reason: R.loadOrderWill(T.list(p.changes.map((c) => c.target))) };
    },
    async prepare(ctx) {
      const { plan: p, places } = await plan(ctx);
      if (p.refusals.length) throw new CudawizError(p.refusals.map((r) => r.reason).join('\n'), { code: 'env-refused', fix: p.refusals[0].fix });
      const now = ctx.os === 'windows' ? [] : [R.thisShell(loadOrderExportLine(dirs))];
      if (p.changes.length === 0) return { done: { summary: R.loadOrderNothing, evidence: [...p.notes, ...p.manual, ...now] } };
      return {
        change: {
          question: R.askConsent(T.list(p.changes.map((c) => c.target))),
          lines: envLinesToRunYourself(p),
          leftSummary: R.leftToYou,
          leftEvidence: now,
          async apply() {
            const r = await applyEnvChanges(p.changes, { host: ctx.host, journalFile: places.journalFile });
            if (!r.ok) throw new CudawizError(r.failed?.message ?? '', { fix: r.failed?.fix ?? envLinesToRunYourself(p).join('\n') });
            return { summary: R.loadOrderDone(r.applied.length), evidence: [...r.applied.map((c) => c.target), ...p.notes, ...now] };
          },
        },
      };
    },
  });
}

/** One cudawiz loader file to write (`content`) or take away (`content: null`), by its name in ld.so.conf.d. */
interface ConfWrite {
  name: string;
  content: string | null;
}

/**
 * Loader files of cudawiz's own in /etc/ld.so.conf.d, then ldconfig, for every program: through the env
 * journal (`rollback` undoes them), asked like the other env changes (--configure-env), and as the two
 * sudo lines for a user who is not root (exit 3). The own-conf removal and cuDNN's folder for everyone.
 */
function loaderConfStep(spec: { id: string; title: string; writes: (ctx: PlanContext) => ConfWrite[]; will: string; ask: string; sudoLines: string[]; why: string }): Step<PlanContext> {
  const changes = async (ctx: PlanContext) => {
    const places = envPlaces({ host: ctx.host, root: ctx.host.fsRoot });
    const list: EnvChange[] = [];
    for (const w of spec.writes(ctx)) {
      const target = path.posix.join(places.ldSoConfDir, w.name);
      const before = await readFile(target, 'utf8').catch(() => null);
      if (before !== w.content) list.push({ kind: 'ld-so-conf', target, before, after: w.content, why: spec.why });
    }
    if (list.length) list.push({ kind: 'ldconfig', target: 'ld.so.cache', before: null, after: null, command: { file: 'ldconfig', args: [] }, why: spec.why, libraries: ctx.req.libraries.map((l) => l.file) });
    // A loader file for every program names only folders no one but root can change (#37).
    const untrusted = await untrustedLoaderFolder(list.flatMap((c) => (c.kind === 'ld-so-conf' && c.after !== null ? confDirs(c.after) : [])));
    const stop = untrusted && new CudawizError(untrusted.reason, { code: 'loader-folder-untrusted', fix: untrusted.fix });
    return { list, places, stop };
  };
  return consentStep({
    id: spec.id,
    title: spec.title,
    consent: 'configureEnv',
    async check(ctx) {
      const { list, stop } = await changes(ctx);
      if (stop) return { done: false, reason: stop.message, stop };
      return list.length ? { done: false, reason: spec.will } : { done: true, reason: R.loadOrderNothing };
    },
    async prepare(ctx) {
      const { list, places, stop } = await changes(ctx);
      if (stop) throw stop;
      if (!list.length) return { done: { summary: R.loadOrderNothing } };
      return {
        change: {
          question: spec.ask,
          lines: spec.sudoLines,
          leftSummary: R.leftToYou,
          async apply() {
            const r = await applyEnvChanges(list, { host: ctx.host, journalFile: places.journalFile });
            if (!r.ok) throw new CudawizError(r.failed?.message ?? '', { code: 'needs-elevation', exitCode: EXIT.needsUser, fix: spec.sudoLines.join('\n') });
            return { summary: R.loadOrderDone(r.applied.length), evidence: [...list.filter((c) => c.kind === 'ld-so-conf').map((c) => c.target), ...r.ldconfigLines] };
          },
        },
      };
    },
  });
}

/** Takes away cudawiz's own ld.so.conf.d files an older run left, which hand every program an older copy. */
export function removeOwnConfStep(files: string[], fixes: Finding[]): Step<PlanContext> {
  const listed = files.join(', ');
  return loaderConfStep({
    id: 'remove-own-conf',
    title: titled(R.removeOwnConfStep(listed), fixes),
    writes: () => files.map((f) => ({ name: path.posix.basename(f), content: null })),
    will: R.removeOwnConfWill(listed),
    ask: R.removeOwnConfAsk(listed),
    sudoLines: [`sudo rm ${files.join(' ')}`, 'sudo ldconfig'],
    why: R.removeOwnConfStep(listed),
  });
}

/** cuDNN's own folder beside a distro's CUDA, for every program: its conf file (cuDNN only: it shadows none of the system's CUDA libraries). */
export function cudnnForEveryoneStep(libDir: string, fixes: Finding[]): Step<PlanContext> {
  const name = cudnnLdSoConfFileName(path.posix.dirname(libDir));
  const conf = path.posix.join(LINUX_LD_SO_CONF_DIR, name);
  return loaderConfStep({
    id: 'cudnn-for-everyone',
    title: titled(R.cudnnForEveryoneStep(libDir), fixes),
    writes: (ctx) => [{ name, content: `${fileHead({ tf: ctx.tf, cudnn: ctx.req.cudnn ?? undefined })}${libDir}\n` }],
    will: R.loadOrderWill(`${conf}, ldconfig`),
    ask: R.askConsent(conf),
    sudoLines: [sudoWriteConfLine(conf, [libDir]), 'sudo ldconfig'],
    why: R.cudnnForEveryoneStep(libDir),
  });
}
