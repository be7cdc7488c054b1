// Which CUDA a toolkit directory holds, from the most trustworthy source it has.

/** Where a toolkit's version was read from (the probe's `Toolkit.versionSource`). */
export type ToolkitVersionSource = 'version.txt' | 'version.json' | 'cuda.h' | 'cuda_runtime_api.h' | 'dpkg status' | 'file name' | 'directory name';

export interface VersionReading {
  version: string;
  versionSource: ToolkitVersionSource;
}

/** version.txt (≤ 11.0): "CUDA Version 10.1.243". */
export function parseVersionTxt(text: string): string | undefined {
  return /CUDA Version\s+(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1];
}

/**
 * version.json (11.1+): {"cuda": {"version": "11.5.2"}}. Some releases write a build date as the
 * third part ("11.8.20220929"); then only major.minor is trusted.
 */
export function parseVersionJson(text: string): string | undefined {
  try {
    const doc = JSON.parse(text) as { cuda?: { version?: unknown } };
    const v = typeof doc.cuda?.version === 'string' ? doc.cuda.version : undefined;
    const m = v ? /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(v) : null;
    if (!m) return undefined;
    if (m[3] === undefined || m[3].length >= 6) return `${m[1]}.${m[2]}`;
    return `${m[1]}.${m[2]}.${m[3]}`;
  } catch {
    return undefined;
  }
}

/** cuda_runtime_api.h: "#define CUDART_VERSION  10010" → 10.1. */
export function parseCudartHeader(text: string): string | undefined {
  const m = /#define\s+CUDART_VERSION\s+(\d+)/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  return `${Math.floor(n / 1000)}.${Math.floor((n % 1000) / 10)}`;
}

/** cuda.h (every release, also where a distro puts it in /usr/include): "#define CUDA_VERSION 11080" → 11.8. */
export function parseCudaHeader(text: string): string | undefined {
  const m = /#define\s+CUDA_VERSION\s+(\d+)/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  return `${Math.floor(n / 1000)}.${Math.floor((n % 1000) / 10)}`;
}

/** The runtime's full version from its real file name: libcudart.so.11.8.89 → 11.8.89 (NVIDIA's and the distros' packages both ship it). */
export function versionFromCudartName(files: readonly string[]): string | undefined {
  const versions = files.map((f) => /^libcudart\.so\.(\d+\.\d+\.\d+)$/.exec(f)?.[1]).filter((v): v is string => v !== undefined);
  return versions.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))[0];
}

/**
 * An installed package's upstream version from dpkg's status file: "11.8.89~11.8.0-5~deb12u1" → 11.8.89,
 * Ubuntu's "11.5.1-1ubuntu1" → 11.5.1. Only packages whose Status says "install ok installed".
 */
export function parseDpkgStatus(text: string, patterns: readonly RegExp[]): { name: string; version: string } | undefined {
  const found = new Map<string, string>();
  for (const stanza of text.split(/\n\s*\n/)) {
    const name = /^Package:\s*(\S+)/m.exec(stanza)?.[1];
    if (!name || !patterns.some((re) => re.test(name))) continue;
    if (!/^Status:.*\binstalled\b/m.test(stanza) || /^Status:.*\bnot-installed\b/m.test(stanza)) continue;
    const v = /^Version:\s*(?:\d+:)?(\d+\.\d+(?:\.\d+)?)/m.exec(stanza)?.[1];
    if (v) found.set(name, v);
  }
  for (const re of patterns) {
    const name = [...found.keys()].sort().find((n) => re.test(n));
    if (name) return { name, version: found.get(name)! };
  }
  return undefined;
}

/** `nvcc --version`: "Cuda compilation tools, release 11.1, V11.1.105" → 11.1 (the V number is nvcc's own). */
export function parseNvccRelease(text: string): string | undefined {
  return /release (\d+\.\d+)/.exec(text)?.[1];
}
