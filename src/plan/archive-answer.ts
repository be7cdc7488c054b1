// Plan policy for the one question a run asks (the login-gated cuDNN archive): the answer is whichever
// comes first, the path the user types, or the archive appearing in the Downloads folder (a browser
// finishing the download while the question is up). Other questions go to the asker as they are.
import { waitForArchiveInDownloads } from '../cudnn/index.js';
import type { RunOptions } from './runner.js';

type Ask = NonNullable<RunOptions['ask']>;

/** `ask` for runPlan: the user's asker, raced against Downloads for the archive; `signal` stops the watch. */
export function typedOrFoundInDownloads(ask: Ask | undefined, signal: AbortSignal, options: { stableMs?: number } = {}): Ask | undefined {
  if (!ask) return undefined;
  return async (need, stepId) => {
    if (need.kind !== 'cudnn-archive') return ask(need, stepId);
    const stop = new AbortController();
    const abort = () => stop.abort();
    signal.addEventListener('abort', abort, { once: true });
    try {
      const watched = waitForArchiveInDownloads(need.downloadsDir, need.file, { signal: stop.signal, stableMs: options.stableMs }).catch(() => undefined);
      const typed = ask(need, stepId);
      // A watch that ends without a file (stopped, or the folder is gone) leaves the answer to the user.
      return await Promise.race([typed, watched.then((found) => found ?? typed)]);
    } finally {
      stop.abort();
      signal.removeEventListener('abort', abort);
    }
  };
}
