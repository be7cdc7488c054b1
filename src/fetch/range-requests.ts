// The requests of one download: the first one, whose answer says the size and whether the server
// honours Range (and cuts the file into pieces), each later piece's ranged request validated by If-Range
// so a changed file is never stitched onto the old one, and what each status means (retry, start over,
// or a message for the user).
import { CudawizError } from '../errors.js';
import { fetchText } from '../i18n/fetch.js';
import { openResponse, type OpenedResponse } from './http.js';
import { parseContentRange, planPieces, type PartState, type Piece } from './part-state.js';
import { parseRetryAfter, RestartNeeded, Retryable } from './retry-policy.js';

/** Where and how one download asks. */
export interface RangeClient {
  url: string;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** The URL each answer came from, after redirects. */
  onUrl: (url: string) => void;
}

/** If-Range from what the first answer said: a strong ETag, else Last-Modified. */
export function validatorHeaders(state: PartState): Record<string, string> {
  const { etag, lastModified } = state;
  if (etag && !etag.startsWith('W/')) return { 'if-range': etag };
  if (lastModified) return { 'if-range': lastModified };
  return {};
}

/** One request, its status judged: 5xx/429/408 are worth another try, 416 starts over, other non-2xx end the download. */
export async function openChecked(c: RangeClient, opts: { range?: string; validators?: Record<string, string> }): Promise<OpenedResponse> {
  const headers: Record<string, string> = {};
  if (opts.range) headers.range = opts.range;
  if (opts.validators) Object.assign(headers, opts.validators);
  let r: OpenedResponse;
  try {
    r = await openResponse(c.url, { headers, signal: c.signal, idleTimeoutMs: c.idleTimeoutMs });
  } catch (error) {
    if (error instanceof CudawizError || c.signal.aborted) throw error;
    throw new Retryable((error as Error).message);
  }
  c.onUrl(r.url);
  if (r.status >= 500 || r.status === 429 || r.status === 408) {
    r.body.destroy();
    throw new Retryable(fetchText.serverAnswered(r.status), parseRetryAfter(r.headers['retry-after']));
  }
  if (r.status === 416) {
    r.body.destroy();
    throw new RestartNeeded('416');
  }
  if (r.status !== 200 && r.status !== 206) {
    r.body.destroy();
    throw new CudawizError(fetchText.httpStatus(c.url, r.status), {
      code: 'http-status',
      fix: r.status === 401 || r.status === 403 ? fetchText.httpLoginFix : fetchText.httpUrlFix,
    });
  }
  return r;
}

/** A fresh start: ask for the first piece; the answer tells us the size and whether Range works. */
export async function openFirst(
  c: RangeClient,
  want: { size?: number; connections: number; final: string },
  t: { pieceBytes: number; segmentMinBytes: number },
): Promise<{ response: OpenedResponse; state: PartState }> {
  const { url } = c;
  const { size, connections } = want;
  const r = await openChecked(c, { range: `bytes=0-${t.pieceBytes - 1}` });
  const etag = r.headers.etag;
  const lastModified = r.headers['last-modified'];
  let state: PartState;
  if (r.status === 206) {
    const cr = parseContentRange(r.headers['content-range']);
    if (!cr || cr.start !== 0) {
      r.body.destroy();
      throw new Retryable(fetchText.unexpectedContentRange(r.headers['content-range']));
    }
    const total = cr.total ?? size ?? null;
    state = { v: 1, url, total, etag, lastModified, ranges: total !== null, pieces: planPieces(total, cr.end, connections, t) };
  } else {
    const length = Number(r.headers['content-length']);
    const total = Number.isFinite(length) && r.headers['content-length'] !== undefined ? length : null;
    state = { v: 1, url, total, etag, lastModified, ranges: false, pieces: [{ start: 0, end: total, done: 0 }] };
  }
  if (size !== undefined && state.total !== null && state.total !== size) {
    r.body.destroy();
    throw new CudawizError(fetchText.sizeMismatch(want.final, state.total, size), {
      code: 'size-mismatch',
      fix: fetchText.sizeMismatchFix,
    });
  }
  return { response: r, state };
}

/**
 * The rest of piece `p`, from where it stopped: a server without ranges can only start over; an answer
 * that is the whole file, or a range that does not continue this one, starts over too. A file whose size
 * was unknown learns it here (`state.total`, `p.end`).
 */
export async function openPiece(c: RangeClient, state: PartState, p: Piece): Promise<OpenedResponse> {
  const from = p.start + p.done;
  if (!state.ranges) {
    if (from > 0) throw new RestartNeeded(fetchText.noRanges);
    return openChecked(c, {});
  }
  const r = await openChecked(c, { range: `bytes=${from}-${p.end === null ? '' : p.end - 1}`, validators: validatorHeaders(state) });
  if (r.status === 200) {
    r.body.destroy();
    throw new RestartNeeded(fetchText.wholeFileNotRange);
  }
  const cr = parseContentRange(r.headers['content-range']);
  if (!cr || cr.start !== from || (state.total !== null && cr.total !== null && cr.total !== state.total)) {
    r.body.destroy();
    throw new RestartNeeded(fetchText.rangeNotContinuing(r.headers['content-range']));
  }
  if (state.total === null && cr.total !== null) {
    state.total = cr.total;
    p.end = cr.total;
  }
  return r;
}
