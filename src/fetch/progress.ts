// Download progress as events: bytes, total, speed over the last few seconds, ETA; at most ~10 a second.
export interface DownloadProgress {
  /** Bytes of the file on disk so far, including what a previous run left. */
  bytes: number;
  /** The file's size, when the server or the catalog said. */
  total?: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  /** Seconds left at that speed, when total and speed are known. */
  eta?: number;
  /** Where this run started: bytes a previous run had already fetched. */
  resumedFrom: number;
  /** Connections transferring right now. */
  connections: number;
}

export type ProgressListener = (p: DownloadProgress) => void;

export class ProgressMeter {
  private bytes = 0;
  private lastEmit = -Infinity;
  private samples: { t: number; bytes: number }[] = [];
  total: number | undefined;
  resumedFrom = 0;
  connections = 0;

  constructor(
    private readonly listener: ProgressListener | undefined,
    private readonly minIntervalMs = 100,
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(bytesOnDisk: number, total: number | undefined): void {
    this.bytes = bytesOnDisk;
    this.resumedFrom = bytesOnDisk;
    this.total = total;
    this.samples = [{ t: this.now(), bytes: bytesOnDisk }];
  }

  add(n: number): void {
    this.bytes += n;
    const t = this.now();
    if (t - this.lastEmit >= this.minIntervalMs) this.emit(t);
  }

  /** A segment that must be fetched again gives back what it had counted. */
  rewind(n: number): void {
    this.bytes -= n;
  }

  get current(): number {
    return this.bytes;
  }

  finish(): void {
    this.emit(this.now());
  }

  private emit(t: number): void {
    this.lastEmit = t;
    this.samples.push({ t, bytes: this.bytes });
    while (this.samples.length > 2 && t - this.samples[0].t > 5000) this.samples.shift();
    const first = this.samples[0];
    const dt = (t - first.t) / 1000;
    const speed = dt > 0 ? Math.max(0, (this.bytes - first.bytes) / dt) : 0;
    const eta = this.total !== undefined && speed > 0 ? Math.max(0, (this.total - this.bytes) / speed) : undefined;
    this.listener?.({ bytes: this.bytes, total: this.total, speed, eta, resumedFrom: this.resumedFrom, connections: this.connections });
  }
}
