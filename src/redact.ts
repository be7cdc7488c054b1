// Credentials never leave the process in anything cudawiz writes or prints: a `--mirror
// https://user:pass@host` (or a token in a query) becomes `https://***@host` in logs, crash reports,
// messages and JSON alike.

/** `scheme://user:pass@` → `scheme://***@`; `?token=…`/`&password=…` values → `***`. */
export function redactCredentials(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi, '$1***@')
    .replace(/([?&](?:access_token|token|password|passwd|pass|secret|key|api_key|apikey|auth|sig|signature)=)[^&#\s"'<>]+/gi, '$1***');
}
