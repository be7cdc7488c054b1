// Dotted version arithmetic for NVIDIA's numbering (418.87.00, 10.1.243, 7.6.5.32), which semver
// cannot parse: compare part by part as integers, missing parts count as 0.
export function parseDotted(v: string): number[] | undefined {
  if (!/^\d+(\.\d+)*$/.test(v.trim())) return undefined;
  return v.trim().split('.').map((p) => Number.parseInt(p, 10));
}

export function compareDotted(a: string, b: string): number {
  const pa = parseDotted(a) ?? [];
  const pb = parseDotted(b) ?? [];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export const atLeast = (v: string, min: string): boolean => compareDotted(v, min) >= 0;

/** "10.1.243" → "10.1"; "11" → "11.0". */
export function majorMinor(v: string): string {
  const p = parseDotted(v) ?? [];
  return `${p[0] ?? 0}.${p[1] ?? 0}`;
}

export function major(v: string): number {
  return (parseDotted(v) ?? [0])[0] ?? 0;
}

/** Does `version` fall under `prefix` ("10.1" covers "10.1.243"; "11" covers "11.2")? */
export function versionHasPrefix(version: string, prefix: string): boolean {
  const a = parseDotted(version);
  const b = parseDotted(prefix);
  if (!a || !b || b.length > a.length) return false;
  return b.every((n, i) => a[i] === n);
}

/** "3.3-3.7" → true for "3.5". */
export function inRange(v: string, min: string, max: string): boolean {
  return compareDotted(majorMinor(v), min) >= 0 && compareDotted(majorMinor(v), max) <= 0;
}
