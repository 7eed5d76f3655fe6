import { readFileSync } from 'node:fs';

/** The process's resident memory now and its peak so far (VmRSS, VmHWM), in MB; undefined where /proc is not Linux's. */
export function residentMb(): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const rss = kb('VmRSS');
    const hwm = kb('VmHWM');
    return Number.isFinite(rss) && Number.isFinite(hwm) ? { rss: rss / 1024, hwm: hwm / 1024 } : undefined;
  } catch {
    return undefined;
  }
}

/** How often the resident memory is sampled for the phases' peaks (ms). */
const RSS_SAMPLE_MS = 500;

/**
 * Progress of a long build on the terminal: the current step, what it is doing within (`detail`: validation's
 * table, check and percentage), files written, rate and time left.
 * Redraws one line on a TTY; on a pipe (CI, logs) prints a line every few seconds.
 *
 * Files are counted against a total only in a phase that said how many it writes (`expectFiles`: the radar
 * tree, the timeseries tree, the charts): `radar tree: /files | 1234/15552 files …, ~14 s left`. Elsewhere
 * (downloads, the site's pages, the manifest) the line shows the files written so far and no total, and a
 * phase that writes more than it said shows no total from then on: a total is never passed. Before the first
 * file (validation, the databases) no file count is shown at all.
 */
export class Progress {
  private readonly out: NodeJS.WriteStream;
  private readonly tty: boolean;
  private readonly started = performance.now();
  private lastDraw = 0;
  private step = '';
  files = 0;
  bytes = 0;
  /** Files each phase said it writes (`expectFiles`), by phase name. */
  private readonly expected = new Map<string, number>();
  /** Files written since the current phase began. */
  private phaseFiles = 0;
  private detailText = '';

  private readonly quiet: boolean;

  constructor(out: NodeJS.WriteStream = process.stderr, quiet = false) {
    this.out = out;
    this.quiet = quiet;
    this.tty = Boolean(out.isTTY);
  }

  /** Seconds spent per phase: a step's text up to its first ':' (`radar database: files_x` → `radar database`). */
  readonly phases: Record<string, number> = {};
  /** CPU seconds per phase (user and system, of the whole process: its worker threads and DuckDB's too). */
  readonly cpuPhases: Record<string, number> = {};
  /**
   * Peak resident memory per phase (MB, issue 23's budget per phase: docs/scale-out.md "Memory budget of a
   * build"): the largest of the samples taken every RSS_SAMPLE_MS while it ran, and the process's peak (VmHWM)
   * when that rose during the phase, so the phase that set the build's peak has it exactly. Empty where /proc
   * is not Linux's.
   */
  readonly rssPhases: Record<string, number> = {};
  private phase = '';
  private phaseStarted = performance.now();
  private phaseCpu = process.cpuUsage();
  private phaseRss = 0;
  private phaseHwm = residentMb()?.hwm ?? 0;
  private sampler: NodeJS.Timeout | undefined = setInterval(() => this.sampleRss(), RSS_SAMPLE_MS).unref();

  private sampleRss(): void {
    const m = residentMb();
    if (m) this.phaseRss = Math.max(this.phaseRss, m.rss);
  }

  /** Stops sampling (done() does; a build that failed calls it itself). */
  stop(): void {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = undefined;
  }

  begin(step: string): void {
    this.step = step;
    this.detailText = '';
    const phase = Progress.phaseOf(step);
    if (phase !== this.phase) this.endPhase(phase);
    this.draw(true);
  }

  /** A step's phase: its text up to its first ':'. */
  static phaseOf(step: string): string {
    return step.split(':')[0]!.trim();
  }

  /** The files the phase of `step` (`radar tree`, or `radar tree: …`) will write, added to what it said before. */
  expectFiles(step: string, files: number): void {
    const phase = Progress.phaseOf(step);
    this.expected.set(phase, (this.expected.get(phase) ?? 0) + files);
  }

  /** What the current step is doing within (replaced by the next detail or step); drawn at the usual pace. */
  detail(text: string): void {
    this.detailText = text;
    this.draw(false);
  }

  private endPhase(next: string): void {
    const now = performance.now();
    const cpu = process.cpuUsage();
    if (this.phase) {
      this.phases[this.phase] = (this.phases[this.phase] ?? 0) + (now - this.phaseStarted) / 1000;
      this.cpuPhases[this.phase] = (this.cpuPhases[this.phase] ?? 0) + (cpu.user - this.phaseCpu.user + cpu.system - this.phaseCpu.system) / 1e6;
      const m = residentMb();
      if (m) {
        const peak = Math.max(this.phaseRss, m.rss, m.hwm > this.phaseHwm ? m.hwm : 0);
        this.rssPhases[this.phase] = Math.round(Math.max(this.rssPhases[this.phase] ?? 0, peak));
      }
    }
    this.phase = next;
    this.phaseStarted = now;
    this.phaseCpu = cpu;
    this.phaseFiles = 0;
    this.phaseRss = 0;
    this.phaseHwm = residentMb()?.hwm ?? 0;
  }

  wrote(bytes: number, files = 1): void {
    this.files += files;
    this.phaseFiles += files;
    this.bytes += bytes;
    this.draw(false);
  }

  line(text: string): void {
    if (this.quiet) return;
    if (this.tty) this.out.write('\r\x1b[K');
    this.out.write(text + '\n');
  }

  /** The progress line as it is drawn now (`now`: performance.now()). */
  text(now = performance.now()): string {
    const secs = (now - this.started) / 1000;
    const step = this.detailText ? `${this.step} - ${this.detailText}` : this.step;
    const total = this.expected.get(this.phase);
    const mb = `${(this.bytes / 1e6).toFixed(1)} MB`;
    let files = '';
    if (total !== undefined && total > 0 && this.phaseFiles <= total) {
      const phaseSecs = (now - this.phaseStarted) / 1000;
      const rate = phaseSecs > 0 ? this.phaseFiles / phaseSecs : 0;
      const left = this.phaseFiles < total && rate > 0 ? `, ~${Math.ceil((total - this.phaseFiles) / rate)} s left` : '';
      files = `${this.phaseFiles}/${total} files (${this.files} in all), ${mb}, ${Math.round(rate)} files/s${left}, `;
    } else if (this.files > 0) {
      files = `${this.files} files, ${mb}, ${Math.round(secs > 0 ? this.files / secs : 0)} files/s, `;
    }
    return `${step} | ${files}${secs.toFixed(1)} s`;
  }

  private draw(force: boolean): void {
    if (this.quiet) return;
    const now = performance.now();
    if (!force && now - this.lastDraw < (this.tty ? 100 : 5000)) return;
    this.lastDraw = now;
    const text = this.text(now);
    if (this.tty) this.out.write(`\r\x1b[K${text}`);
    else this.out.write(text + '\n');
  }

  /** Clears the progress line of a TTY (before other output). */
  clear(): void {
    if (this.tty && !this.quiet) this.out.write('\r\x1b[K');
  }

  done(summary: string): void {
    this.endPhase('');
    this.stop();
    const phases = Object.entries(this.phases).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ');
    const rss = Object.entries(this.rssPhases).map(([k, v]) => `${k} ${v}`).join(', ');
    this.line(`${summary}\n  (${phases})${rss ? `\n  (peak resident MB: ${rss})` : ''}`);
  }
}
