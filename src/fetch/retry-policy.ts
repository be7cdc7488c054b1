// A download's retry policy: which failures are worth another attempt, how long to wait before it
// (backoff doubling from a base, capped at 30 s, or the server's Retry-After), when a wait is too long to
// sit through, and the message a failure ends as once the attempts run out.
import { setTimeout as delay } from 'node:timers/promises';
import { CudawizError, EXIT } from '../errors.js';
import { formatBytes } from '../format.js';
import { fetchText } from '../i18n/fetch.js';
import type { CachePaths } from './cache-paths.js';

/** The file on the server changed, or the server ignores Range: drop the .part and start over. */
export class RestartNeeded extends Error {}
/** A failure worth another attempt (network, 5xx), with the server's Retry-After if it sent one. */
export class Retryable extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
/** An attempt that moved bytes, but too few: counts as a failure even though it made progress. */
export class TooSlow extends Retryable {
  constructor(
    message: string,
    /** The window it was measured over, in ms. */
    readonly windowMs: number,
  ) {
    super(message);
  }
}
/** A body without a length that went past any size this file can have. */
export class BodyTooLong extends Error {}

export interface RetryTuning {
  /** Consecutive failed attempts before giving up. */
  retries: number;
  /** First backoff; doubles each time, capped at 30 s. */
  retryBaseMs: number;
  /** A Retry-After longer than this ends the download with a message instead of waiting. */
  maxRetryAfterMs: number;
  /** The slowest an attempt may be (bytes/s), for the message a stall ends as. */
  minBytesPerSec: number;
}

/** A duration as said to the user: "0.3", "12", never "0". */
export const seconds = (ms: number) => (ms < 10_000 ? (Math.max(ms, 100) / 1000).toFixed(1) : String(Math.round(ms / 1000)));

/** "45 s", "12 min", "3 h", "2 days": how long a server asked us to wait. */
export function waitSpan(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return fetchText.waitSeconds(s);
  if (s < 2 * 3600) return fetchText.waitMinutes(Math.round(s / 60));
  if (s < 2 * 86_400) return fetchText.waitHours(Math.round(s / 3600));
  return fetchText.waitDays(Math.round(s / 86_400));
}

function retryLaterError(url: string, waitMs: number): CudawizError {
  return new CudawizError(fetchText.retryAfter(url, waitSpan(waitMs)), { code: 'retry-later', fix: fetchText.retryAfterFix, details: { retryAfterMs: Math.round(waitMs) } });
}

export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function interruptedError(paths: CachePaths, bytes: number): CudawizError {
  return new CudawizError(bytes > 0 ? fetchText.interruptedKept(formatBytes(bytes), paths.part) : fetchText.interruptedNothing, {
    exitCode: EXIT.interrupted,
    code: 'interrupted',
    fix: fetchText.interruptedFix,
  });
}

/**
 * Waits before attempt `failures + 1`: the server's Retry-After, else the backoff (with ±25 % jitter
 * when `jitter`, so several connections do not retry in step). A wait longer than the tuning allows ends
 * the download with a message saying when to try again; an abort ends the wait early.
 */
export async function waitBeforeRetry(error: Retryable, failures: number, t: RetryTuning, url: string, signal: AbortSignal, jitter: boolean): Promise<void> {
  const backoff = Math.min(30_000, t.retryBaseMs * 2 ** (failures - 1));
  const wait = error.retryAfterMs ?? (jitter ? backoff * (0.75 + Math.random() / 2) : backoff);
  if (wait > t.maxRetryAfterMs) throw retryLaterError(url, wait);
  await delay(wait, undefined, { signal }).catch(() => undefined);
}

/** `fn` again after each Retryable failure, up to `t.retries` more times; `interrupted` is what an abort ends as. */
export async function withRetries<T>(fn: () => Promise<T>, t: RetryTuning, url: string, signal: AbortSignal, interrupted: () => Error | undefined): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      return await fn();
    } catch (error) {
      const stop = interrupted();
      if (stop) throw stop;
      if (!(error instanceof Retryable) || failures > t.retries) throw error;
      await waitBeforeRetry(error, failures, t, url, signal, false);
    }
  }
}

/** Turns what is left of an internal failure into something the user can act on. */
export function explainFailure(error: unknown, t: RetryTuning, url: string, interrupted: () => Error | undefined, counts?: { stalls: number; tries: number }): unknown {
  if (error instanceof CudawizError) return error;
  const stop = interrupted();
  if (stop) return stop;
  if (error instanceof TooSlow) {
    // What was measured: the window the last try was judged over, and how many tries in a row stalled (of how many).
    const tries = counts?.tries ?? t.retries + 1;
    return new CudawizError(fetchText.tooSlow(url, formatBytes(t.minBytesPerSec), seconds(error.windowMs), counts?.stalls ?? tries, tries), { code: 'download-stalled', fix: fetchText.tooSlowFix });
  }
  if (error instanceof Retryable) {
    return new CudawizError(fetchText.failedAfterTries(url, t.retries + 1, error.message), {
      code: 'download-failed',
      fix: fetchText.failedAfterTriesFix,
    });
  }
  if (error instanceof RestartNeeded) return new CudawizError(fetchText.keptChanging(error.message), { code: 'download-failed' });
  return error;
}
