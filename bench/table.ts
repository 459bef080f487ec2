// Plain-text tables for the bench's output: one per section, columns right-aligned
// except the first, so a run's log reads the same in a terminal and in a report.

/** A cell: text as is, a number formatted by `num`, or nothing (`-`). */
export type Cell = string | number | undefined | null;

/** Prints a titled table; `notes` follow it, one per line. */
export function printTable(title: string, head: string[], rows: Cell[][], notes: string[] = []): void {
  const text = rows.map((r) => head.map((_, i) => cell(r[i])));
  const width = head.map((h, i) => Math.max(h.length, ...text.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i])))
      .join('  ')
      .trimEnd();
  const rule = width.map((w) => '-'.repeat(w)).join('  ');
  console.log(`\n## ${title}\n`);
  console.log(line(head));
  console.log(rule);
  for (const r of text) console.log(line(r));
  for (const n of notes) console.log(`  ${n}`);
}

function cell(c: Cell): string {
  if (c === undefined || c === null) return '-';
  return typeof c === 'number' ? num(c) : c;
}

/** A number to about three significant digits, with thousands separators. */
export function num(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? '-' : String(x);
  const a = Math.abs(x);
  const digits = Number.isInteger(x) || a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a === 0 ? 0 : 3;
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A ratio as `1.23x`. */
export function ratio(x: number | undefined): string | undefined {
  return x === undefined || !Number.isFinite(x) ? undefined : `${num(x)}x`;
}

/** Bytes as MB (10^6), the unit of file sizes and throughput. */
export function mb(bytes: number): string {
  return num(bytes / 1e6);
}

/** `PASS` or `FAIL`. */
export function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'FAIL';
}

/** A target of the issue, checked on this run's numbers. */
export interface Check {
  target: string;
  value: string;
  pass: boolean;
}

/** Prints the PASS/FAIL lines of a section's targets. */
export function printChecks(title: string, checks: Check[], notes: string[] = []): void {
  if (checks.length)
    printTable(
      title,
      ['target', 'result', 'measured'],
      checks.map((c) => [c.target, verdict(c.pass), c.value]),
      notes,
    );
}
