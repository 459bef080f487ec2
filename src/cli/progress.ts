/**
 * A load's progress on stderr: a bar redrawn in place on a terminal, a plain line now
 * and then in a log, or nothing. The formatting functions are pure, for the tests.
 */
import type { LoadProgress } from '../types.js';

/** Bytes in decimal units (`133.1 MB`), as file sizes and download rates are quoted. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${Math.round(n)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let i = -1;
  do {
    n /= 1000;
    i++;
  } while (n >= 999.95 && i < units.length - 1);
  return `${n.toFixed(1)} ${units[i]}`;
}

/** Bytes done of a total in the total's unit (`69.2/133.1 MB`), so a progress line keeps its width. */
export function formatPart(done: number, total: number): string {
  const t = formatBytes(total);
  const unit = t.slice(t.indexOf(' ') + 1);
  const scale = unit === 'B' ? 1 : 1000 ** (['kB', 'MB', 'GB', 'TB'].indexOf(unit) + 1);
  const d = done / scale;
  return `${unit === 'B' ? Math.round(d) : d.toFixed(1)}/${t}`;
}

/** A count with thousands separators (`14,812,345`), the same whatever the host's locale. */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Bytes per second over `ms` milliseconds (`19.8 MB/s`); `-` before any time has passed. */
export function formatRate(bytes: number, ms: number): string {
  if (!(ms > 0)) return '- MB/s';
  return `${formatBytes((bytes * 1000) / ms)}/s`;
}

/** Seconds as a clock, `m:ss` or `h:mm:ss` (rounded up: an ETA should not say 0:00 early); `-:--` when unknown. */
export function formatClock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '-:--';
  const s = Math.ceil(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A duration for a summary: `420 ms`, `10.1 s`, then a clock from a minute on. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  return formatClock(ms / 1000);
}

/**
 * The first seconds of a load start its decoder threads: an average over them
 * overstates what is left many times (26 minutes for a 12 s load of Nepal).
 */
const SETTLE_MS = 2000;
/**
 * ...unless a fifth of the file is in by then: a file that loads in a second or two would
 * otherwise show no ETA at all, and by a fifth the start-up is a small part of the average.
 */
const SETTLE_PART = 0.2;

/**
 * Seconds left at the average rate so far; `Infinity` while that says nothing: before
 * the first block (the header alone), and in the first two seconds unless a fifth of the file is in.
 */
export function eta(p: LoadProgress, ms: number): number {
  const settled = ms >= SETTLE_MS || (ms > 0 && p.bytesRead >= SETTLE_PART * p.bytesTotal);
  if (!settled || p.bytesRead <= 0 || p.objects === 0) return Infinity;
  return ((p.bytesTotal - p.bytesRead) * ms) / p.bytesRead / 1000;
}

/** `[#####.....]`: `width` cells between the brackets, filled by `fraction` (0..1). */
export function bar(fraction: number, width: number): string {
  const full = Math.max(0, Math.min(width, Math.floor(fraction * width)));
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}]`;
}

/**
 * The loader reports the last byte only once the index is ready, and between the last
 * block and that the places are indexed (some 40% of a big load) while the bytes stand
 * still just short of the total (frame headers are a few bytes per ~64 kB blob). There
 * the ETA of the bytes would say 0:00 for seconds, so the line says so instead.
 */
const INDEXING = 0.999;

/**
 * One progress line without a bar: percentage, bytes, objects, rate, and the ETA (or,
 * when done, the time taken). `ms` is the time since the load started.
 *
 * @example
 * progressText({ bytesRead: 69.2e6, bytesTotal: 133.1e6, objects: 7_712_000 }, 3500)
 * // ' 51%  69.2/133.1 MB  7,712,000 objects  19.8 MB/s  ETA 0:04'
 */
export function progressText(p: LoadProgress, ms: number): string {
  const f = p.bytesTotal > 0 ? p.bytesRead / p.bytesTotal : 1;
  const done = p.bytesRead >= p.bytesTotal;
  const pct = `${String(Math.floor(f * 100)).padStart(3)}%`;
  const left = done ? `in ${formatDuration(ms)}` : f >= INDEXING ? 'indexing' : `ETA ${formatClock(eta(p, ms))}`;
  const rate = p.objects > 0 ? formatRate(p.bytesRead, ms) : formatRate(0, 0);
  return `${pct}  ${formatPart(p.bytesRead, p.bytesTotal)}  ${formatCount(p.objects)} objects  ${rate}  ${left}`;
}

/** Room kept for the text after the bar: a Nepal-size line is about 60 characters. */
const TEXT_ROOM = 60;

/**
 * The bar and the text, cut to `columns`. The bar's width depends on `columns` only,
 * so the text does not shift as its numbers grow; under 10 cells there is no bar.
 */
export function barLine(p: LoadProgress, ms: number, columns: number): string {
  const text = progressText(p, ms);
  const f = p.bytesTotal > 0 ? p.bytesRead / p.bytesTotal : 1;
  const width = Math.min(30, columns - 1 - 3 - TEXT_ROOM);
  const line = width >= 10 ? `${bar(f, width)} ${text}` : text;
  // one column spare: writing the last one wraps the cursor on some terminals
  return line.slice(0, Math.max(0, columns - 1));
}

/** Where the progress goes: `bar` redraws one line (a TTY), `lines` appends a line now and then, `none` is silent. */
export type ProgressMode = 'bar' | 'lines' | 'none';

/** What `Progress` writes to: a stream such as `process.stderr`. */
export interface ProgressOut {
  write(s: string): unknown;
  /** Terminal width, for the bar (unknown or 0: 80). */
  columns?: number;
}

/** At most this often a bar redraw (ms): ten a second looks live without flooding a slow terminal. */
const BAR_MS = 100;
/** Lines mode: a line per tenth of the file, but not more often than this (ms), plus the first, the last and the start of indexing. */
const LINE_MS = 2000;

/**
 * Shows a load's progress; pass `update` as `loadPbf`'s `onProgress`, and call `end`
 * before writing anything else (it ends the bar's line).
 *
 * @example
 * const progress = new Progress(process.stderr.isTTY ? 'bar' : 'lines', process.stderr, 'load');
 * await loadPbf(file, { onProgress: progress.update });
 * progress.end();
 */
export class Progress {
  private readonly start: number;
  private last = -Infinity;
  private lastTenth = -1;
  private drawn = false;
  private indexing = false;

  /**
   * @param label a word before each line (`load`)
   * @param now the clock in ms, for tests
   */
  constructor(
    private readonly mode: ProgressMode,
    private readonly out: ProgressOut,
    private readonly label: string,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.start = now();
  }

  /** Takes one report of the loader; draws it if it is time to. */
  readonly update = (p: LoadProgress): void => {
    if (this.mode === 'none') return;
    const t = this.now();
    const ms = t - this.start;
    const done = p.bytesRead >= p.bytesTotal;
    // The last block's report is drawn whatever the clock: it stands for the seconds
    // of indexing that follow, where nothing else is reported.
    const indexing = !done && p.bytesRead >= INDEXING * p.bytesTotal;
    const turn = indexing && !this.indexing;
    this.indexing = indexing;
    if (this.mode === 'bar') {
      if (!done && !turn && t - this.last < BAR_MS) return;
      this.last = t;
      this.out.write(`\r${this.label} ${barLine(p, ms, (this.out.columns || 80) - this.label.length - 1)}\x1b[K`);
      this.drawn = !done;
      if (done) this.out.write('\n');
      return;
    }
    const tenth = p.bytesTotal > 0 ? Math.floor((10 * p.bytesRead) / p.bytesTotal) : 10;
    const first = this.last === -Infinity;
    if (!first && !done && !turn && (tenth === this.lastTenth || t - this.last < LINE_MS)) return;
    this.last = t;
    this.lastTenth = tenth;
    this.out.write(`${this.label} ${progressText(p, ms)}\n`);
  };

  /** Ends the bar's line if one is showing (as after a failed load), so what follows starts on a new line. */
  end(): void {
    if (this.drawn) this.out.write('\n');
    this.drawn = false;
  }
}
