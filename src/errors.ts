// One error type for everything a user can be told: what went wrong, what to do, and the exit code.
import { ownLines } from './i18n/localized.js';

export const EXIT = {
  ok: 0,
  problems: 1,
  usage: 2,
  needsUser: 3,
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CudawizError extends Error {
  constructor(
    message: string,
    readonly options: { fix?: string; exitCode?: ExitCode; code?: string; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'CudawizError';
    // cudawiz composed these (values inside already shown as data, a quoted log tail on purpose): a message that quotes them keeps their lines.
    ownLines(message);
    if (options.fix) ownLines(options.fix);
  }
  get exitCode(): ExitCode {
    return this.options.exitCode ?? EXIT.problems;
  }
  get fix(): string | undefined {
    return this.options.fix;
  }
  get code(): string | undefined {
    return this.options.code;
  }
}

export class UsageError extends CudawizError {
  constructor(message: string, fix?: string, details?: Record<string, unknown>) {
    super(message, { fix, exitCode: EXIT.usage, code: 'usage', details });
    this.name = 'UsageError';
  }
}
