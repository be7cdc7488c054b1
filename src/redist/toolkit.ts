// The redist toolkit: NVIDIA's per-component archives fetched in parallel (verified by the
// manifest's sha256 and size, cached), unpacked into one per-user folder with the standard layout,
// under a manifest of every file with its sha256 — so `repair` can re-verify each one and re-fetch
// only what is missing or changed, and `rollback` can remove the folder whole (it is all ours).
import { stepsText } from '../i18n/steps.js';
import { chmod, lstat, mkdir, readdir, readFile, readlink, realpath, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { detectFormat, extractArchive } from '../cudnn/archive.js';
import { ArchiveReadError } from '../cudnn/archive-reader.js';
import { sha256File } from '../cudnn/file-hasher.js';
import { hostPath, isRelativeInside, landsOutside, linkStaysInside } from '../cudnn/member-paths.js';
import { notOurFolder, untrustedBookkeeping } from '../trust/ownership.js';
import { readBookkeeping } from '../trust/bookkeeping.js';
import * as z from 'zod';
import { envText } from '../i18n/env.js';
import { safetyText } from '../i18n/safety.js';
import { CudawizError, EXIT } from '../errors.js';
import { fetchVerified, type FetchResult } from '../fetch/index.js';
import type { OsName } from '../platform.js';
import { redistPlatform, releaseArchives, type RedistArchive, type RedistCatalog, type RedistPlatform, type RedistRelease } from './catalog.js';
import { toolkitPathFor } from './layout.js';
import { redistText } from '../i18n/redist.js';
import { makeFolders, moveInto, replaceFile, writeNewFile } from '../trust/write.js';

export const REDIST_MANIFEST = path.join('.cudawiz', 'redist.json');
/** Archives extracted at once. */
const UNPACK_PARALLEL = 4;

export interface RedistFile {
  /** Toolkit-relative, `/`-separated. */
  path: string;
  component: string;
  type: 'file' | 'symlink';
  size?: number;
  sha256?: string;
  linkTarget?: string;
}

export interface RedistComponentRecord {
  id: string;
  version: string;
  relativePath: string;
  sha256: string;
  size: number;
  done: boolean;
}

export interface RedistManifest {
  tool: 'cudawiz';
  schema: 1;
  what: 'cuda-redist';
  state: 'unpacking' | 'complete';
  os: OsName;
  toolkitDir: string;
  release: string;
  /** The CUDA the TensorFlow it was set up for was built with ("11.2"). */
  builtFor?: string;
  startedAt: string;
  finishedAt?: string;
  components: RedistComponentRecord[];
  files: RedistFile[];
}

export type RedistArchiveEntry = RedistArchive & { component: string; version: string };

export const redistManifestFile = (toolkitDir: string) => path.join(toolkitDir, REDIST_MANIFEST);

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const inside = z.string().refine(isRelativeInside);
/** What a redist manifest cudawiz wrote looks like; anything else is refused on read. */
const redistManifestSchema = z.object({
  tool: z.literal('cudawiz'),
  schema: z.literal(1),
  what: z.literal('cuda-redist'),
  state: z.enum(['unpacking', 'complete']),
  os: z.enum(['linux', 'windows']),
  toolkitDir: z.string(),
  release: z.string().min(1),
  builtFor: z.string().optional(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  components: z.array(z.object({ id: z.string().min(1), version: z.string(), relativePath: z.string(), sha256: sha256Hex, size: z.number().int().nonnegative(), done: z.boolean() })),
  files: z.array(
    z
      .object({ path: inside, component: z.string().min(1), type: z.enum(['file', 'symlink']), size: z.number().int().nonnegative().optional(), sha256: sha256Hex.optional(), linkTarget: z.string().min(1).max(4096).optional() })
      .refine((f) => (f.type === 'symlink' ? f.linkTarget !== undefined : f.size !== undefined && f.sha256 !== undefined)),
  ),
});

/** Whether a folder holds a redist manifest at all (its bookkeeping may still be refused on read). */
export const hasRedistManifest = (toolkitDir: string) => lstat(redistManifestFile(toolkitDir)).then(() => true, () => false);

/**
 * A toolkit's redist manifest, read and checked: undefined when there is none; a CudawizError (never
 * a guess) when someone other than root or this user owns it or could have written it, or when it is
 * not as cudawiz writes it. `toolkitDir` is the folder it was found in, whatever the file records:
 * a manifest cannot send cudawiz's writes or deletions anywhere else.
 */
export async function readRedistManifest(toolkitDir: string): Promise<RedistManifest | undefined> {
  const file = redistManifestFile(toolkitDir);
  if (!(await hasRedistManifest(toolkitDir))) return undefined;
  // Believed as src/trust/bookkeeping.ts says: the toolkit, its .cudawiz folder and the file (read once, no link) root's or yours, writable by no one else.
  const read = await readBookkeeping(file, [toolkitDir, path.dirname(file)]);
  if ('missing' in read) return undefined;
  if ('untrusted' in read) throw new CudawizError(safetyText.unsafeOwner(toolkitDir, read.untrusted), { code: 'redist-manifest-untrusted', fix: safetyText.unsafeOwnerFix(toolkitDir) });
  const unreadable = (why: string) => new CudawizError(safetyText.manifestUnreadable(file, why), { code: 'manifest-invalid', fix: safetyText.manifestUnreadableFix(file) });
  if ('unreadable' in read) throw unreadable(read.unreadable);
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    throw unreadable(envText.notCompleteJson);
  }
  const parsed = redistManifestSchema.safeParse(json);
  if (!parsed.success) throw unreadable(redistText.manifestField(parsed.error.issues[0].path.join('.')));
  const m = { ...(parsed.data as RedistManifest), toolkitDir };
  // The toolkit's own links (libcudart.so → libcudart.so.11.0) stay in the toolkit.
  for (const f of m.files) {
    if (f.type === 'symlink' && !isRelativeInside(path.posix.normalize(path.posix.join(path.posix.dirname(f.path), f.linkTarget!))))
      throw new CudawizError(safetyText.manifestOutside(file, `${f.path} → ${f.linkTarget}`, toolkitDir), { code: 'manifest-unsafe', fix: safetyText.manifestOutsideFix(toolkitDir) });
  }
  return m;
}

/** Atomic, never through a link, and only into a folder this user owns. */
async function writeRedistManifest(toolkitDir: string, m: RedistManifest): Promise<void> {
  const notOurs = await notOurFolder(toolkitDir);
  if (notOurs) throw new CudawizError(redistText.notOurFolder(toolkitDir, notOurs), { code: 'redist-dir-not-ours', fix: redistText.notOursFix });
  const file = redistManifestFile(toolkitDir);
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const untrusted = await untrustedBookkeeping([toolkitDir, dir]);
  if (untrusted) throw new CudawizError(safetyText.unsafeOwner(toolkitDir, untrusted), { code: 'redist-manifest-untrusted', fix: safetyText.unsafeOwnerFix(toolkitDir) });
  await replaceFile(file, `${JSON.stringify({ ...m, toolkitDir }, null, 2)}\n`, { mode: 0o644 });
}

/** The cache file name of an archive: NVIDIA's own (it carries component, platform and version). */
export const archiveFileName = (a: RedistArchive) => path.posix.basename(a.relative_path);

export interface DownloadAllOptions {
  catalog: RedistCatalog;
  archives: RedistArchiveEntry[];
  cacheDir: string;
  mirror?: string;
  /** The downloader's connection budget, shared by all archives at once (default 4). */
  connections?: number;
  signal?: AbortSignal;
  onProgress?: (p: { bytes: number; total: number; speed: number; files: number; totalFiles: number }) => void;
  /** Called as each archive is downloaded and verified, while the others still download. */
  onArchive?: (component: string, result: FetchResult) => void;
}

/** Fetches every archive, several at once within the connection budget; each verified, each resumable. */
export async function downloadArchives(options: DownloadAllOptions): Promise<Map<string, FetchResult>> {
  const budget = Math.max(1, options.connections ?? 4);
  const queue = [...options.archives].sort((a, b) => b.size - a.size);
  const total = options.archives.reduce((n, a) => n + a.size, 0);
  const bytes = new Map<string, number>();
  const speeds = new Map<string, number>();
  const results = new Map<string, FetchResult>();
  const report = () => options.onProgress?.({ bytes: [...bytes.values()].reduce((a, b) => a + b, 0), total, speed: [...speeds.values()].reduce((a, b) => a + b, 0), files: results.size, totalFiles: options.archives.length });
  const workers = Math.min(budget, queue.length);
  // Every parallel fetch listens on the one abort signal.
  if (options.signal) setMaxListeners(Math.max(20, workers * 8), options.signal);
  const worker = async () => {
    for (let a = queue.shift(); a; a = queue.shift()) {
      const entry = a;
      const r = await fetchVerified({
        url: new URL(entry.relative_path, options.catalog.baseUrl).toString(),
        file: archiveFileName(entry),
        checksum: { sha256: entry.sha256 },
        size: entry.size,
        cacheDir: options.cacheDir,
        mirror: options.mirror,
        connections: Math.max(1, Math.floor(budget / workers)),
        signal: options.signal,
        onProgress: (p) => {
          bytes.set(entry.component, p.bytes);
          speeds.set(entry.component, p.speed);
          report();
        },
      });
      bytes.set(entry.component, r.bytes);
      speeds.delete(entry.component);
      results.set(entry.component, r);
      options.onArchive?.(entry.component, r);
      report();
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}

async function walk(dir: string, rel = ''): Promise<{ rel: string; full: string; link: boolean }[]> {
  const out: { rel: string; full: string; link: boolean }[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(full, r)));
    else out.push({ rel: r, full, link: e.isSymbolicLink() });
  }
  return out;
}

export interface UnpackOptions {
  catalog: RedistCatalog;
  release: RedistRelease;
  os: OsName;
  toolkitDir: string;
  builtFor?: string;
  /** component id → the verified archive in the cache. */
  files: Map<string, string>;
  signal?: AbortSignal;
  onProgress?: (p: { files: number; totalFiles: number; current: string }) => void;
  /** For tests only: wait this long before putting each file in place, so an unpack can be killed midway. */
  throttleMs?: number;
}

/** An existing folder at the toolkit's place that is not ours (an installer's toolkit) is never written into. */
async function assertOurs(toolkitDir: string): Promise<RedistManifest | undefined> {
  const manifest = await readRedistManifest(toolkitDir);
  if (manifest) return manifest;
  const entries = await readdir(toolkitDir).catch(() => undefined);
  if (entries && entries.length > 0) {
    throw new CudawizError(redistText.notOurs(toolkitDir), { code: 'redist-dir-taken', exitCode: EXIT.usage, fix: redistText.notOursFix });
  }
  return undefined;
}

/** An unpack begun before its archives are all here: each is extracted into staging once handed in. */
export interface RedistUnpack {
  /** Hands in one verified archive (from the cache): its extraction into staging starts at once. */
  stage(component: string, archive: string): void;
  /** Waits for every staging and moves the files into place, in order; finishes the manifest. */
  finish(onProgress?: UnpackOptions['onProgress']): Promise<RedistManifest>;
  /** After a failed download: leaves the folder as it was (no folder, or the previous manifest). */
  abandon(): Promise<void>;
  /** Archive members not written (hard links, device files), as `component: member`. */
  readonly skipped: readonly string[];
}

/** The manifest an unpack starts from (state "unpacking"): a component of the same release and bytes already done stays done. */
function unpackManifest(options: Omit<UnpackOptions, 'files' | 'onProgress'>, archives: RedistArchiveEntry[], previous: RedistManifest | undefined): RedistManifest {
  const { release, os, toolkitDir } = options;
  return {
    tool: 'cudawiz',
    schema: 1,
    what: 'cuda-redist',
    state: 'unpacking',
    os,
    toolkitDir,
    release: release.version,
    builtFor: options.builtFor ?? previous?.builtFor,
    startedAt: previous?.startedAt ?? new Date().toISOString(),
    components: archives.map((a) => {
      const before = previous?.release === release.version ? previous.components.find((c) => c.id === a.component && c.sha256 === a.sha256) : undefined;
      return { id: a.component, version: a.version, relativePath: a.relative_path, sha256: a.sha256, size: a.size, done: before?.done ?? false };
    }),
    files: previous?.release === release.version ? previous.files : [],
  };
}

interface StagedComponent {
  /** The component's folder in staging. */
  stage: string;
  staged: { file: RedistFile; from: string }[];
}

/**
 * One verified archive extracted into `<staging>/<component>`, each member mapped to its place in the
 * toolkit (a member the layout does not take is left out) and hashed as written; a member not written
 * (a hard link, a device file) is added to `skipped`.
 */
async function stageComponent(
  where: { catalog: RedistCatalog; platform: RedistPlatform; staging: string; signal?: AbortSignal },
  c: RedistComponentRecord,
  archive: string,
  skipped: string[],
): Promise<StagedComponent> {
  const format = await detectFormat(archive);
  if (!format) throw new CudawizError(redistText.notAnArchive(archive), { code: 'redist-archive-unreadable', fix: stepsText.runAgain });
  const stage = path.join(where.staging, c.id);
  await rm(stage, { recursive: true, force: true });
  const hashes = await extractArchive(archive, format, stage, { signal: where.signal, onSkipped: (name) => skipped.push(`${c.id}: ${name}`) }).catch((error: unknown) => {
    if (!(error instanceof ArchiveReadError)) throw error;
    throw error.reason === 'unsafe-path'
      ? new CudawizError(redistText.unsafeArchive(c.id, error.message), { code: 'redist-archive-unsafe', fix: redistText.unsafeArchiveFix })
      : new CudawizError(redistText.unreadableArchive(c.id, error.message), { code: 'redist-archive-unreadable', fix: stepsText.runAgain });
  });
  const staged: StagedComponent['staged'] = [];
  for (const m of await walk(stage)) {
    const rel = toolkitPathFor(where.catalog, where.platform, c.id, m.rel);
    if (!rel) continue;
    const file: RedistFile = m.link
      ? { path: rel, component: c.id, type: 'symlink', linkTarget: await readlink(m.full) }
      : { path: rel, component: c.id, type: 'file', size: (await stat(m.full)).size, sha256: hashes.get(m.rel) ?? (await sha256File(m.full)) };
    staged.push({ file, from: m.full });
  }
  return { stage, staged };
}

/**
 * The stagings of one unpack: archives extracted several at once (each an xz child or a zip reader plus
 * a hashing thread, mostly waiting), in the order they are handed in; once abandoned, nothing more starts.
 */
function stagingQueue(todo: RedistComponentRecord[], stageOne: (c: RedistComponentRecord, archive: string) => Promise<StagedComponent>) {
  const slots = Array.from({ length: UNPACK_PARALLEL }, () => Promise.resolve());
  let next = 0;
  let abandoned = false;
  const stagings = new Map<string, Promise<StagedComponent>>();
  return {
    stage(component: string, archive: string): void {
      const c = todo.find((t) => t.id === component);
      // Downloads still running after one failed hand theirs in too late: nothing more is written.
      if (abandoned || !c || stagings.has(component)) return;
      const slot = next++ % UNPACK_PARALLEL;
      const p = slots[slot].then(() => stageOne(c, archive));
      slots[slot] = p.then(() => undefined, () => undefined);
      p.catch(() => undefined); // awaited in finish, in order; a failure must not go unhandled meanwhile
      stagings.set(component, p);
    },
    get: (component: string) => stagings.get(component),
    settle: () => Promise.allSettled([...stagings.values()]),
    abandon(): void {
      abandoned = true;
    },
  };
}

/**
 * Where a staged file goes, once it is known to land inside the toolkit: the real folder it lands in
 * (links laid by earlier files or components followed here, after the lib → lib64 rename), and for a
 * link, where it points. Checked right before each move, never by the move itself.
 */
async function placeable(root: string, toolkitDir: string, file: RedistFile): Promise<string> {
  const unsafe = (where: string) =>
    new CudawizError(redistText.unsafeArchive(file.component, redistText.wouldLand(file.path, where)), { code: 'redist-archive-unsafe', fix: redistText.unsafeArchiveFix });
  if (!isRelativeInside(file.path)) throw unsafe(toolkitDir);
  const target = hostPath(toolkitDir, file.path);
  const outside = await landsOutside(root, target);
  if (outside) throw unsafe(outside);
  if (file.type === 'symlink' && !(await linkStaysInside(root, target, file.linkTarget ?? ''))) throw unsafe(`→ ${file.linkTarget}`);
  return target;
}

/** One staged component's files moved into the toolkit, in order, each checked right before its move. */
async function placeComponent(
  at: { root: string; toolkitDir: string; os: OsName; signal?: AbortSignal; throttleMs?: number },
  staged: StagedComponent['staged'],
  onPlaced: (file: RedistFile) => void,
): Promise<void> {
  for (const { file, from } of staged) {
    at.signal?.throwIfAborted();
    if (at.throttleMs) await delay(at.throttleMs);
    const target = await placeable(at.root, at.toolkitDir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await rm(target, { force: true });
    await moveInto(from, target);
    // Tar modes are not kept by the reader: the programs (nvcc, ptxas, cicc) are made runnable by where they sit.
    if (at.os === 'linux' && file.type === 'file' && /^(bin|nvvm\/bin)\//.test(file.path)) await chmod(target, 0o755);
    onPlaced(file);
  }
}

/** The folder as it was before an unpack: absent, or (made by the user beforehand) empty. */
async function removeFresh(toolkitDir: string, existed: boolean): Promise<void> {
  if (!existed) return rm(toolkitDir, { recursive: true, force: true });
  for (const name of await readdir(toolkitDir)) await rm(path.join(toolkitDir, name), { recursive: true, force: true });
}

/**
 * Begins an unpack: the manifest (state "unpacking") is written first, then archives are extracted into
 * `.cudawiz/staging` as they are handed in — while the others still download — and only `finish` moves
 * files into the toolkit. Only verified archives are handed in (fetchVerified checks sha256 and size).
 */
export async function beginUnpack(options: Omit<UnpackOptions, 'files' | 'onProgress'>): Promise<RedistUnpack> {
  const { catalog, release, os, toolkitDir } = options;
  const previous = await assertOurs(toolkitDir);
  const existed = await lstat(toolkitDir).then(() => true, () => false);
  const { archives, missing } = releaseArchives(catalog, release, os);
  if (missing.length) throw new CudawizError(redistText.releaseLacks(release.version, missing), { code: 'redist-incomplete-release', fix: redistText.overlayFix });
  const manifest = unpackManifest(options, archives, previous);
  await makeFolders(toolkitDir);
  await writeRedistManifest(toolkitDir, manifest);
  const staging = path.join(toolkitDir, '.cudawiz', 'staging');
  const todo = manifest.components.filter((c) => !c.done);
  const skipped: string[] = [];
  const where = { catalog, platform: redistPlatform(os), staging, signal: options.signal };
  const queue = stagingQueue(todo, (c, archive) => stageComponent(where, c, archive, skipped));
  const root = await realpath(toolkitDir);
  const finish = async (onProgress?: UnpackOptions['onProgress']) => {
    let placed = 0;
    try {
      for (const c of todo) {
        options.signal?.throwIfAborted();
        const pending = queue.get(c.id);
        if (!pending) throw new CudawizError(redistText.notDownloaded(c.id), { fix: stepsText.runAgain });
        const { stage: dir, staged } = await pending;
        // Recorded before any file moves: an interrupted unpack leaves a manifest that names them all.
        manifest.files = [...manifest.files.filter((f) => f.component !== c.id), ...staged.map((s) => s.file)];
        await writeRedistManifest(toolkitDir, manifest);
        await placeComponent({ root, toolkitDir, os, signal: options.signal, throttleMs: options.throttleMs }, staged, (file) =>
          onProgress?.({ files: ++placed, totalFiles: 0, current: file.path }),
        );
        await rm(dir, { recursive: true, force: true });
        c.done = true;
        await writeRedistManifest(toolkitDir, manifest);
      }
    } catch (error) {
      // A refused or unreadable archive leaves no half-made toolkit: a fresh one goes, files and all
      // (links are removed as links, never followed); an earlier one keeps its manifest for repair.
      if (error instanceof CudawizError && (error.code === 'redist-archive-unsafe' || error.code === 'redist-archive-unreadable')) {
        await queue.settle();
        if (!previous) await removeFresh(toolkitDir, existed);
        else await rm(staging, { recursive: true, force: true });
      }
      throw error;
    } finally {
      await queue.settle();
    }
    await rm(staging, { recursive: true, force: true });
    await writeVersionJson(manifest);
    manifest.state = 'complete';
    manifest.finishedAt = new Date().toISOString();
    await writeRedistManifest(toolkitDir, manifest);
    return manifest;
  };
  const abandon = async () => {
    queue.abandon();
    await queue.settle();
    if (!previous) {
      await removeFresh(toolkitDir, existed);
      return;
    }
    await rm(staging, { recursive: true, force: true });
    await writeRedistManifest(toolkitDir, previous);
  };
  return { stage: queue.stage, finish, abandon, skipped };
}

/** Unpacks the components not yet done (all, for a fresh toolkit) and finishes the manifest. */
export async function unpackRedist(options: UnpackOptions): Promise<RedistManifest> {
  const unpack = await beginUnpack(options);
  for (const [component, archive] of options.files) unpack.stage(component, archive);
  return unpack.finish(options.onProgress);
}

/** version.json in NVIDIA's shape, so every tool (and the doctor) reads the toolkit's version as from an installer's. */
async function writeVersionJson(m: RedistManifest): Promise<void> {
  const doc = { cuda: { name: 'CUDA SDK', version: m.release }, cudawiz: { route: 'redist', components: Object.fromEntries(m.components.map((c) => [c.id, c.version])) } };
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const file = path.join(m.toolkitDir, 'version.json');
  await rm(file, { force: true });
  await writeNewFile(file, text, 0o644);
  const rec: RedistFile = { path: 'version.json', component: 'cudawiz', type: 'file', size: Buffer.byteLength(text), sha256: await sha256File(file) };
  m.files = [...m.files.filter((f) => f.path !== 'version.json'), rec];
}

export interface RedistCheck {
  state: 'absent' | 'unpacking' | 'complete';
  manifest?: RedistManifest;
  /** Files missing or not as cudawiz wrote them. */
  changed: string[];
  /** Components to fetch and unpack again: unfinished, or owning a changed file. */
  components: string[];
}

async function fileMatches(toolkitDir: string, f: RedistFile, deep: boolean): Promise<boolean> {
  const full = hostPath(toolkitDir, f.path);
  const s = await lstat(full).catch(() => undefined);
  if (!s) return false;
  if (f.type === 'symlink') return s.isSymbolicLink() && (await readlink(full)) === f.linkTarget;
  if (!s.isFile() || s.size !== f.size) return false;
  return !deep || (await sha256File(full)) === f.sha256;
}

/** Every file against the manifest: sizes always, sha256 when `deep` (repair, verify). */
export async function checkRedistToolkit(toolkitDir: string, options: { deep?: boolean } = {}): Promise<RedistCheck> {
  const manifest = await readRedistManifest(toolkitDir);
  if (!manifest) return { state: 'absent', changed: [], components: [] };
  const changed: string[] = [];
  const components = new Set(manifest.components.filter((c) => !c.done).map((c) => c.id));
  for (const f of manifest.files) {
    if (await fileMatches(toolkitDir, f, options.deep ?? false)) continue;
    changed.push(f.path);
    if (f.component !== 'cudawiz') components.add(f.component);
  }
  return { state: manifest.state, manifest, changed, components: [...components] };
}

export interface RepairOptions extends Omit<DownloadAllOptions, 'archives'> {
  release: RedistRelease;
  os: OsName;
  toolkitDir: string;
  onLog?: (line: string) => void;
}

/** Re-verifies every file by sha256 and fetches and unpacks again only the components that need it. */
export async function repairRedist(options: RepairOptions): Promise<{ check: RedistCheck; refetched: string[]; manifest: RedistManifest }> {
  const check = await checkRedistToolkit(options.toolkitDir, { deep: true });
  if (!check.manifest) throw new CudawizError(redistText.noToolkit(options.toolkitDir), { fix: redistText.installFix });
  if (check.components.length === 0 && check.changed.length === 0 && check.state === 'complete') return { check, refetched: [], manifest: check.manifest };
  const manifest = check.manifest;
  for (const c of manifest.components) if (check.components.includes(c.id)) c.done = false;
  manifest.state = 'unpacking';
  await writeRedistManifest(options.toolkitDir, manifest);
  const { archives } = releaseArchives(options.catalog, options.release, options.os);
  const wanted = archives.filter((a) => check.components.includes(a.component));
  const fetched = await downloadArchives({ ...options, archives: wanted });
  const manifestAfter = await unpackRedist({ catalog: options.catalog, release: options.release, os: options.os, toolkitDir: options.toolkitDir, files: new Map([...fetched].map(([k, v]) => [k, v.path])), signal: options.signal });
  return { check, refetched: wanted.map((a) => a.component), manifest: manifestAfter };
}

export interface RedistRemoval {
  removed: boolean;
  /** Files and links cudawiz had put there, removed (unchanged since). */
  files: number;
  release?: string;
  /** Files the manifest lists that changed since (someone else's now): left in place. */
  changed: string[];
  /** What is left that cudawiz never wrote (the user's own files), toolkit-relative. */
  left: string[];
}

/**
 * Rollback of a redist toolkit: only the files its (trusted) manifest lists and that are still as
 * cudawiz wrote them (sha256, link target) are removed, then the folders they leave empty; anything
 * else in the folder (the user's TensorRT libraries, notebooks) stays and is named.
 */
export async function removeRedistToolkit(toolkitDir: string): Promise<RedistRemoval> {
  const manifest = await readRedistManifest(toolkitDir);
  if (!manifest) return { removed: false, files: 0, changed: [], left: [] };
  const root = await realpath(toolkitDir);
  const changed: string[] = [];
  let files = 0;
  for (const f of manifest.files) {
    const full = hostPath(toolkitDir, f.path);
    // Through a link out of the toolkit, "the file" is someone else's: never followed.
    if (await landsOutside(root, full)) {
      changed.push(f.path);
      continue;
    }
    if (!(await lstat(full).then(() => true, () => false))) continue;
    if (!(await fileMatches(toolkitDir, f, true))) {
      changed.push(f.path);
      continue;
    }
    await unlink(full);
    files += 1;
  }
  await rm(path.join(toolkitDir, '.cudawiz', 'staging'), { recursive: true, force: true });
  await rm(redistManifestFile(toolkitDir), { force: true });
  await rm(`${redistManifestFile(toolkitDir)}.tmp`, { force: true });
  await removeEmptyFolders(toolkitDir);
  const left = (await lstat(toolkitDir).then(() => walk(toolkitDir), () => [])).map((e) => e.rel).filter((rel) => !changed.includes(rel));
  return { removed: true, files, release: manifest.release, changed, left };
}

/** Folders left empty below `dir` (and `dir` itself), deepest first; links are never followed. */
async function removeEmptyFolders(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (!entries) return false;
  let empty = true;
  for (const e of entries) {
    if (e.isDirectory() && (await removeEmptyFolders(path.join(dir, e.name)))) continue;
    empty = false;
  }
  if (!empty) return false;
  return rmdir(dir).then(() => true, () => false);
}

/** Toolkit folders directly under `root` that cudawiz laid out from redist archives. */
export async function redistToolkitsUnder(root: string): Promise<string[]> {
  const names = await readdir(root).catch(() => [] as string[]);
  const out: string[] = [];
  for (const n of names.sort()) {
    const dir = path.join(root, n);
    if ((await lstat(dir).catch(() => undefined))?.isDirectory() && (await hasRedistManifest(dir))) out.push(dir);
  }
  return out;
}
