// A command in a real pseudo-terminal (util-linux `script`), for what only a TTY shows: the wizard.
import { spawn } from 'node:child_process';

// eslint-disable-next-line no-control-regex
export const visibleText = (text: string) => text.replace(/\u001B\[[0-?]*[ -/]*[@-~]|\u001B[\]P^_][^\u0007\u001B]*(?:\u0007|\u001B\\)|\u001B./g, '');

/**
 * Runs `argv` in a 100×30 pty and resolves with what it printed once `until` matches the visible
 * text (or, with `untilRaw`, the bytes as printed), or it exits; then stops it. `raw` keeps the
 * escape sequences. Rejects after `timeoutMs` with what it had printed.
 */
export function inPty(
  argv: string[],
  options: { env?: Record<string, string>; until?: RegExp; untilRaw?: RegExp; timeoutMs?: number } = {},
): Promise<{ text: string; raw: string; exitCode: number | null }> {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = `stty cols 100 rows 30 2>/dev/null; exec ${argv.map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { TERM: 'xterm-256color', ...options.env },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let raw = '';
    let settled = false;
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      settled = true;
      stop();
      reject(new Error(`no match for ${String(options.until)} within ${options.timeoutMs ?? 15_000} ms; printed:\n${visibleText(raw)}`));
    }, options.timeoutMs ?? 15_000);
    child.stdout.on('data', (chunk) => {
      raw += String(chunk);
      if (!settled && (options.until?.test(visibleText(raw)) || options.untilRaw?.test(raw))) {
        settled = true;
        clearTimeout(timer);
        stop();
        resolve({ text: visibleText(raw), raw, exitCode: null });
      }
    });
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`cannot start util-linux \`script\` for a pty: ${error.message}`));
    });
    child.on('exit', (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ text: visibleText(raw), raw, exitCode: code });
    });
  });
}
