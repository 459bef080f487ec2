// Section 2, nearby(): per query class, our latency beside the bare geokdbush search
// and a linear scan for the same queries on the same index, and the issue's targets.

import { nearby, type PlaceIndex } from '../src/index.js';
import { Baselines } from './baselines.js';
import { queryClasses, queryPoints, OPEN_PAIRS, LIMIT5_R50, RARE_CLASSES, MIXED, CLASS_NAMES, type QueryClass } from './queries.js';
import { timeEach, type Timing } from './timing.js';
import { printTable, printChecks, num, ratio, type Cell, type Check } from './table.js';

/** How many queries of each class are checked against the linear scan (untimed). */
const CHECKED = 32;

/** A query class that did not finish on a dataset (its child was killed), and the classes it kept from running. */
export interface ClassFailure {
  dataset: string;
  class: string;
  reason: string;
  notRun: string[];
}

/** One query class on one dataset. */
export interface NearbyRow {
  dataset: string;
  class: string;
  /** Places of the class's type in the index (`-` for mixed). */
  typeCount?: number;
  /** Mean number of records over the checked queries. */
  hits: number;
  ours: Timing;
  bare: Timing;
  linear: Timing;
  oursOverBare: number;
  oursOverLinear: number;
  /** Checked queries whose placeIds (in order) equal the linear scan's. */
  same: number;
  checked: number;
}

/** The query classes of an index: `queryClasses` at its query points. */
export function nearbyClasses(index: PlaceIndex, centres: [number, number][]): QueryClass[] {
  return queryClasses(queryPoints(index, centres));
}

/** Measures one query class on a loaded index, beside the baselines. */
export function measureClass(dataset: string, index: PlaceIndex, base: Baselines, cls: QueryClass): NearbyRow {
  const qs = cls.queries;
  // the answers first: ours must be the linear scan's, or the timings compare different work
  let same = 0,
    hits = 0;
  const n = Math.min(CHECKED, qs.length);
  for (let i = 0; i < n; i++) {
    const ours = nearby(index, qs[i]).map((r) => r.placeId);
    const lin = base.linear(qs[i]).map((p) => base.placeId(p));
    hits += ours.length;
    if (ours.length === lin.length && ours.every((id, k) => id === lin[k])) same++;
  }
  const t = timeEach(qs, { ours: (q) => nearby(index, q), bare: base.bare, linear: base.linear });
  return {
    dataset,
    class: cls.name,
    typeCount: cls.name === MIXED ? undefined : (index.typeCounts()[qs[0].type] ?? 0),
    hits: hits / n,
    ours: t.ours,
    bare: t.bare,
    linear: t.linear,
    oursOverBare: t.ours.p50 / t.bare.p50,
    oursOverLinear: t.ours.p50 / t.linear.p50,
    same,
    checked: n,
  };
}

/**
 * Prints the nearby table (and the classes that never finished) and checks the
 * targets on the `datasets` that were attempted.
 */
export function nearbySection(rows: NearbyRow[], failures: ClassFailure[], datasets: string[]): Check[] {
  printTable(
    '2. nearby()',
    [
      'dataset',
      'class',
      'type n',
      'hits',
      'p50 µs',
      'p99 µs',
      'q/s',
      'bare p50',
      'bare p99',
      'linear p50',
      'ours/bare',
      'ours/linear',
      'same',
    ],
    rows.map((r): Cell[] => [
      r.dataset,
      r.class,
      r.typeCount,
      r.hits,
      r.ours.p50,
      r.ours.p99,
      r.ours.hz,
      r.bare.p50,
      r.bare.p99,
      r.linear.p50,
      ratio(r.oursOverBare),
      ratio(r.oursOverLinear),
      `${r.same}/${r.checked}`,
    ]),
    [
      'Classes: restaurant (common), eat (merged: cafe, restaurant, bakery), bicycle_rental (rare); default radius 10, limit 5,',
      '  by score. mixed: type x radius 1/5/10/50 x limit 5/50 x sortBy x isOpen, one combination per query. isOpen at',
      '  2026-01-14 12:00 NPT. Points: 128, around central Kathmandu (fixture) or the tile centres of the sidecar (generated).',
      'p50/p99/q/s: nearby() building full records, per call. bare: geokdbush.around over all places (one KDBush, degrees)',
      '  with a type (and open) predicate; it has no score order, so by-score queries take all in range and rank them.',
      '  linear: every place tested, then sorted. Both baselines return place rows, not records, and share the',
      "  engine's cached opening-hours states. type n: places of the type. hits: mean records per query.",
      `same: of the first ${CHECKED} queries, how many give exactly the linear scan's placeIds in its order.`,
      ...failures.map(
        (f) => `NOT MEASURED ${f.dataset} ${f.class}: ${f.reason}` + (f.notRun.length ? `; not run after it: ${f.notRun.join(', ')}` : ''),
      ),
    ],
  );
  const checks: Check[] = [];
  const get = (d: string, c: string) => rows.find((r) => r.dataset === d && r.class === c);
  // a target whose classes were not measured fails, saying so
  const missing = (d: string, cs: string[]) => cs.filter((c) => !get(d, c)).map((c) => `${d} ${c}`);
  const unmeasured = (target: string, which: string[]) => checks.push({ target, value: `not measured: ${which.join(', ')}`, pass: false });
  for (const f of failures) {
    checks.push({
      target: `${f.dataset}: ${f.class} finishes`,
      value: f.reason + (f.notRun.length ? ` (${f.notRun.length} classes after it not run)` : ''),
      pass: false,
    });
  }
  for (const d of datasets) {
    const mine = rows.filter((r) => r.dataset === d);
    const over = mine.filter((r) => r.oursOverBare > 2).sort((a, b) => b.oursOverBare - a.oursOverBare);
    const gone = missing(d, [...CLASS_NAMES]);
    checks.push({
      target: `${d}: p50 within 2x of bare, every class`,
      value:
        `${mine.length - over.length}/${CLASS_NAMES.length} within` +
        (over.length
          ? `; over: ${over.map((r) => `${r.class} ${ratio(r.oursOverBare)}`).join(', ')}`
          : mine.length
            ? `; worst ${ratio(Math.max(...mine.map((r) => r.oursOverBare)))}`
            : '') +
        (gone.length ? `; ${gone.length} not measured` : ''),
      pass: over.length === 0 && gone.length === 0,
    });
    for (const [withOpen, without] of OPEN_PAIRS) {
      const target = `${d}: ${withOpen} p50 within 2x of without`;
      const a = get(d, withOpen),
        b = get(d, without);
      if (!a || !b) {
        unmeasured(target, missing(d, [withOpen, without]));
        continue;
      }
      const x = a.ours.p50 / b.ours.p50;
      checks.push({ target, value: `${num(a.ours.p50)} vs ${num(b.ours.p50)} µs = ${ratio(x)}`, pass: x <= 2 });
    }
  }
  if (datasets.includes('nepal')) {
    for (const c of RARE_CLASSES) {
      const target = `${c}: nepal p50 no more than fixture (+25% noise margin)`;
      const small = get('fixture', c),
        big = get('nepal', c);
      if (!small || !big) {
        unmeasured(target, [...missing('fixture', [c]), ...missing('nepal', [c])]);
        continue;
      }
      const x = big.ours.p50 / small.ours.p50;
      checks.push({
        target,
        value: `${num(big.ours.p50)} vs ${num(small.ours.p50)} µs = ${ratio(x)} (${big.typeCount} vs ${small.typeCount} places of the type)`,
        pass: x <= 1.25,
      });
    }
    for (const c of LIMIT5_R50) {
      const target = `nepal: ${c} (limit 5, 50 km) p99 < 50 µs`;
      const r = get('nepal', c);
      if (!r) unmeasured(target, missing('nepal', [c]));
      else checks.push({ target, value: `p99 ${num(r.ours.p99)} µs, p50 ${num(r.ours.p50)} µs`, pass: r.ours.p99 < 50 });
    }
  }
  printChecks('2. nearby() targets', checks);
  return checks;
}
