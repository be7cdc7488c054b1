// Sizes and durations as people read them in progress lines (binary units, like `ls -h`).
import { catalogText } from './i18n/catalog.js';

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(u === 0 ? 0 : 1)} ${units[u]}`;
}

/** A download's size as every screen says it: "1.1 GiB", or "size unknown" where no source gives it — never "0 B". */
export function formatSize(bytes: number | undefined): string {
  return bytes ? formatBytes(bytes) : catalogText.sizeUnknown;
}

/** The total of several downloads: their sum, "at least X (N sizes unknown)" when some are unknown, "size unknown" when all are. */
export function formatTotalSize(sizes: readonly (number | undefined)[]): string {
  const known = sizes.filter((n): n is number => Boolean(n));
  if (sizes.length === 0 || known.length === 0) return catalogText.sizeUnknown;
  const total = formatBytes(known.reduce((a, b) => a + b, 0));
  return known.length === sizes.length ? total : catalogText.sizeAtLeast(total, sizes.length - known.length);
}

export function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
