// What every command receives: its parsed arguments, the host, the streams, and the catalog.
import type { Readable, Writable } from 'node:stream';
import { loadCatalog } from '../catalog/load.js';
import type { Catalog } from '../catalog/schema.js';
import type { Host } from '../host.js';
import type { ParsedCommand } from './flags.js';
import type { Output } from './output.js';

export interface CommandIO {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean };
}

export interface CommandContext extends ParsedCommand {
  host: Host;
  io: CommandIO;
  out: Output;
  catalog(): Catalog;
  /** Resolves when the user presses Ctrl+C (SIGINT); commands pass it to the runner. */
  signal: AbortSignal;
}

export function catalogLoader(overlayFile: string | undefined): () => Catalog {
  let cached: Catalog | undefined;
  return () => (cached ??= loadCatalog({ overlayFile }));
}
