// What every archive reader shares: the formats, an entry as listed, the one error a reader throws,
// the extract options, and the interface the zip reader (zip-reader.ts) and the tar reader
// (tar-reader.ts) both implement, so archive.ts picks one by format and the callers see one API.
import { normaliseMemberName } from './member-paths.js';
import type { TarEntry } from './tar-stream.js';

export type ArchiveFormat = 'zip' | 'tar.gz' | 'tar.xz';

/** The name as stored, with `/` separators and no leading `./`. */
export type ArchiveEntry = TarEntry;

/** Why an archive could not be read: damaged, or holding a path the reader itself refuses. */
export class ArchiveReadError extends Error {
  constructor(
    message: string,
    readonly reason: 'corrupt' | 'unsafe-path' | 'unsupported',
  ) {
    super(message);
  }
}

export interface ExtractOptions {
  signal?: AbortSignal;
  /** Extract just these member names. */
  only?: Set<string>;
  onFile?: (name: string, bytes: number) => void;
  /** A member that is not a file, folder or link (a hard link, a device file) is not written: it is said here, never dropped silently. */
  onSkipped?: (name: string) => void;
}

/** One archive format's reader: list its members, read one, extract them (each file's sha256 back). */
export interface ArchiveReader {
  list(file: string): Promise<ArchiveEntry[]>;
  /** One member's bytes, at most `maxBytes`; undefined when there is no such member. */
  readMember(file: string, member: string, maxBytes: number): Promise<Buffer | undefined>;
  extract(file: string, dest: string, options: ExtractOptions): Promise<Map<string, string>>;
}

/** One spelling per name (a zip's directory entries keep their trailing `/`, which says what they are). */
export const cleanName = (name: string) => normaliseMemberName(name) + (name.endsWith('/') && normaliseMemberName(name) !== '' ? '/' : '');

/** A relative path that stays below its folder: no `..`, not absolute, no backslashes or drive letters. */
export const staysInside = (name: string) => !/^([a-zA-Z]:|[\\/])/.test(name) && !name.includes('\\') && !name.split('/').includes('..');
