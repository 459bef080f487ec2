/**
 * The progress display of `nepal-places build`: the pure formatters, and what a
 * `Progress` writes in each mode for a scripted load on a fake clock.
 */
import { describe, expect, it } from 'vitest';
import {
  bar,
  barLine,
  eta,
  formatBytes,
  formatClock,
  formatCount,
  formatDuration,
  formatPart,
  formatRate,
  Progress,
  progressText,
  type ProgressMode,
} from '../src/cli/progress.js';
import type { LoadProgress } from '../src/types.js';

describe('formatters', () => {
  it('formatBytes: decimal units, one decimal', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('1.0 kB');
    expect(formatBytes(1_321_985)).toBe('1.3 MB');
    expect(formatBytes(133_092_098)).toBe('133.1 MB');
    expect(formatBytes(999_960)).toBe('1.0 MB'); // not "1000.0 kB"
    expect(formatBytes(2.5e9)).toBe('2.5 GB');
    expect(formatBytes(7e15)).toBe('7000.0 TB');
  });

  it("formatPart: the done part in the total's unit", () => {
    expect(formatPart(69_200_000, 133_100_000)).toBe('69.2/133.1 MB');
    expect(formatPart(125, 1_321_985)).toBe('0.0/1.3 MB');
    expect(formatPart(12, 800)).toBe('12/800 B');
  });

  it('formatCount: thousands separators whatever the locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(14_812_345)).toBe('14,812,345');
  });

  it('formatRate: bytes per second', () => {
    expect(formatRate(19_800_000, 1000)).toBe('19.8 MB/s');
    expect(formatRate(133_100_000, 10_100)).toBe('13.2 MB/s');
    expect(formatRate(500, 1000)).toBe('500 B/s');
    expect(formatRate(100, 0)).toBe('- MB/s');
  });

  it('formatClock: m:ss, h:mm:ss, rounded up; unknown is -:--', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(0.2)).toBe('0:01');
    expect(formatClock(4)).toBe('0:04');
    expect(formatClock(59.5)).toBe('1:00');
    expect(formatClock(754)).toBe('12:34');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatClock(Infinity)).toBe('-:--');
    expect(formatClock(NaN)).toBe('-:--');
  });

  it('formatDuration: ms, then s, then a clock', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(420.4)).toBe('420 ms');
    expect(formatDuration(10_100)).toBe('10.1 s');
    expect(formatDuration(59_000)).toBe('59.0 s');
    expect(formatDuration(125_000)).toBe('2:05');
  });

  it('eta: what is left at the average rate; unknown before the first block and in the first 2 s', () => {
    expect(eta({ bytesRead: 50, bytesTotal: 100, objects: 1 }, 2000)).toBe(2);
    expect(eta({ bytesRead: 100, bytesTotal: 100, objects: 1 }, 2000)).toBe(0);
    expect(eta({ bytesRead: 125, bytesTotal: 100_000, objects: 0 }, 5000)).toBe(Infinity);
    expect(eta({ bytesRead: 400_000, bytesTotal: 133_000_000, objects: 64_000 }, 1000)).toBe(Infinity);
    expect(eta({ bytesRead: 0, bytesTotal: 100, objects: 0 }, 0)).toBe(Infinity);
  });

  it('eta of a small file: known within its first 2 s once a fifth of it is in', () => {
    // 1.3 MB, 0.3 MB in after 200 ms: 1.0 MB left at 1.5 MB/s
    expect(eta({ bytesRead: 300_000, bytesTotal: 1_300_000, objects: 40_000 }, 200)).toBeCloseTo((1_000_000 * 0.2) / 300_000, 9);
    expect(eta({ bytesRead: 200_000, bytesTotal: 1_300_000, objects: 30_000 }, 150)).toBe(Infinity); // not a fifth yet
  });

  it('a bar over a one-second load shows an ETA before it ends', () => {
    let t = 0;
    let written = '';
    const p = new Progress('bar', { write: (s: string) => (written += s), columns: 120 }, 'load', () => t);
    const total = 2_000_000;
    for (let i = 1; i <= 10; i++) {
      t = i * 100;
      p.update({ bytesRead: Math.min(total - 1, (i * total) / 10), bytesTotal: total, objects: i * 10_000 });
    }
    expect(written).toMatch(/ETA 0:0[1-9]/);
  });

  it('bar: filled by the fraction, clamped', () => {
    expect(bar(0, 10)).toBe('[..........]');
    expect(bar(0.55, 10)).toBe('[#####.....]');
    expect(bar(1, 10)).toBe('[##########]');
    expect(bar(1.5, 4)).toBe('[####]');
    expect(bar(-1, 4)).toBe('[....]');
  });
});

describe('progressText and barLine', () => {
  const mid: LoadProgress = { bytesRead: 69_200_000, bytesTotal: 133_100_000, objects: 7_712_000 };

  it('percentage (rounded down), bytes, objects, rate, ETA', () => {
    expect(progressText(mid, 3500)).toBe(' 51%  69.2/133.1 MB  7,712,000 objects  19.8 MB/s  ETA 0:04');
  });

  it('the header alone: no rate, no ETA', () => {
    expect(progressText({ bytesRead: 125, bytesTotal: 1_321_985, objects: 0 }, 4)).toBe('  0%  0.0/1.3 MB  0 objects  - MB/s  ETA -:--');
  });

  it('every block in but the index not ready: indexing, not 100% or ETA 0:00', () => {
    expect(progressText({ bytesRead: 1_321_577, bytesTotal: 1_321_985, objects: 180_217 }, 490)).toBe(
      ' 99%  1.3/1.3 MB  180,217 objects  2.7 MB/s  indexing',
    );
  });

  it('done: 100% and the time taken', () => {
    expect(progressText({ bytesRead: 133_100_000, bytesTotal: 133_100_000, objects: 18_112_000 }, 10_100)).toBe(
      '100%  133.1/133.1 MB  18,112,000 objects  13.2 MB/s  in 10.1 s',
    );
  });

  it("barLine: the bar's width depends on the columns only, and the line fits them", () => {
    const a = barLine({ ...mid, objects: 1 }, 3500, 100);
    const b = barLine(mid, 3500, 100);
    expect(a.indexOf(']')).toBe(b.indexOf(']'));
    expect(b).toMatch(/^\[#+\.+\]  51%/);
    for (const cols of [20, 40, 74, 80, 100, 200]) {
      const line = barLine(mid, 3500, cols);
      expect(line.length).toBeLessThan(cols);
    }
    expect(barLine(mid, 3500, 200)).toMatch(/^\[[#.]{30}\] /);
    expect(barLine(mid, 3500, 40)).not.toContain('[');
  });
});

/** A scripted load: reports at the given (ms, fraction) points, then done. */
function play(mode: ProgressMode, points: [number, number][], columns?: number): string {
  let t = 0;
  let written = '';
  const total = 100_000_000;
  const p = new Progress(mode, { write: (s: string) => (written += s), columns }, 'load', () => t);
  for (const [ms, f] of points) {
    t = ms;
    p.update({ bytesRead: Math.round(f * total), bytesTotal: total, objects: Math.round(f * 1e6) });
  }
  p.end();
  return written;
}

describe('Progress', () => {
  // header, then a block every 50 ms for 10 s, then 2 s of indexing, then done
  const load: [number, number][] = [[0, 0.000001]];
  for (let ms = 50; ms <= 10_000; ms += 50) load.push([ms, Math.min(0.9999, ms / 10_000)]);
  load.push([12_000, 1]);

  it('lines: the first, one per tenth at most every 2 s, indexing, and the last, each a whole line', () => {
    const lines = play('lines', load).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toMatch(/^load {3}0%/);
    expect(lines.at(-2)).toMatch(/^load  99% .* indexing$/);
    expect(lines.at(-1)).toMatch(/^load 100% .* in 12\.0 s$/);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.length).toBeLessThanOrEqual(8);
    const pcts = lines.map((l) => Number(/(\d+)%/.exec(l)![1]));
    for (let i = 1; i < pcts.length; i++) expect(pcts[i]).toBeGreaterThan(pcts[i - 1]!);
    for (const l of lines) expect(l).not.toMatch(/[\r\x1b]/);
  });

  it('lines: a fast load is the first line, indexing and the last line only', () => {
    const out = play('lines', [
      [0, 0.00001],
      [100, 0.5],
      [150, 0.99],
      [200, 0.99999],
      [250, 0.999995],
      [300, 1],
    ]);
    expect(out.split('\n')).toEqual([
      expect.stringMatching(/^load {3}0%/),
      expect.stringMatching(/^load  99%.* indexing$/),
      expect.stringMatching(/^load 100%.* in 300 ms$/),
      '',
    ]);
  });

  it('bar: redrawn in place at most every 100 ms, ends with the done line and a newline', () => {
    const out = play('bar', load, 100);
    const draws = out.split('\r').filter(Boolean);
    expect(draws.length).toBeGreaterThan(50);
    expect(draws.length).toBeLessThanOrEqual(12_000 / 100 + 2);
    for (const d of draws.slice(0, -1)) expect(d).toMatch(/^load \[[#.]+\] .*\x1b\[K$/);
    expect(draws.at(-1)).toMatch(/^load \[#+\] 100% .*in 12\.0 s\x1b\[K\n$/);
    expect(draws.at(-2)).toMatch(/ 99% .* indexing\x1b\[K$/);
    expect(out.split('\n')).toHaveLength(2);
  });

  it("bar: the last block's report is drawn however soon it follows the one before", () => {
    const draws = play(
      'bar',
      [
        [0, 0.001],
        [3000, 0.9],
        [3010, 0.99995],
        [5000, 1],
      ],
      100,
    )
      .split('\r')
      .filter(Boolean);
    expect(draws.map((d) => /(\d+)%/.exec(d)![1])).toEqual(['0', '90', '99', '100']);
    expect(draws[2]).toMatch(/indexing/);
  });

  it('bar: end() after a failed load ends the line once', () => {
    const out = play(
      'bar',
      [
        [0, 0.001],
        [500, 0.4],
      ],
      100,
    );
    expect(out.endsWith('\x1b[K\n')).toBe(true);
    expect(out.split('\n')).toHaveLength(2);
  });

  it('none: nothing', () => {
    expect(play('none', load)).toBe('');
  });
});
