import OpeningHours from 'opening_hours';

/** Nepal Time is UTC+05:45 all year (no daylight saving). */
export const NPT_OFFSET_MS = (5 * 60 + 45) * 60 * 1000;

/**
 * opening_hours reads a Date's *local* fields, so an instant is handed to it as a
 * Date whose local fields spell the Nepal wall-clock time: the answer is then the
 * same whatever the host's time zone.
 */
export function nptWallDate(t: number): Date {
  const w = new Date(t + NPT_OFFSET_MS);
  return new Date(
    w.getUTCFullYear(),
    w.getUTCMonth(),
    w.getUTCDate(),
    w.getUTCHours(),
    w.getUTCMinutes(),
    w.getUTCSeconds(),
    w.getUTCMilliseconds(),
  );
}

/** The instant of a Date made by `nptWallDate` (or returned by opening_hours for one). */
export function fromNptWall(d: Date): number {
  return (
    Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()) - NPT_OFFSET_MS
  );
}

/**
 * The distinct `opening_hours` values of an index, each parsed once at load, with
 * each one's state cached until its next change: most queries of a burst then cost
 * a comparison per place instead of an evaluation.
 *
 * Parsed without a location: opening_hours has no public holidays for Nepal (it
 * throws on `PH` with country `np`), so `PH`/`SH` rules never match, and
 * `sunrise`/`sunset` take the library's fixed 06:00/18:00.
 */
export class Schedules {
  /** The source strings, by schedule index. */
  readonly values: string[] = [];
  /** How many distinct values failed to parse. */
  bad = 0;
  // undefined until first asked about, for the schedules of a snapshot (`Schedules.of`)
  private readonly parsed: (OpeningHours | null | undefined)[] = [];
  private readonly byValue = new Map<string, number>();
  private from = new Float64Array(16);
  private until = new Float64Array(16);
  private state = new Uint8Array(16);

  /** The schedule index of a value, parsing it on first sight; -1 when it does not parse. */
  add(value: string): number {
    const known = this.byValue.get(value);
    if (known !== undefined) return known;
    let oh: OpeningHours | null = null;
    try {
      oh = new OpeningHours(value, null, 0); // mode 0: time ranges, as opening_hours wants;
    } catch {
      this.bad++;
    }
    const i = oh ? this.parsed.length : -1;
    if (oh) {
      this.parsed.push(oh);
      this.values.push(value);
      this.grow();
    }
    this.byValue.set(value, i);
    return i;
  }

  /**
   * The schedules of values that parsed when the index was built (a snapshot's),
   * in that order; each is parsed again on its first query, not all at start-up.
   */
  static of(values: readonly string[], bad: number): Schedules {
    const s = new Schedules();
    for (const v of values) {
      s.byValue.set(v, s.values.length);
      s.values.push(v);
      s.parsed.push(undefined);
      s.grow();
    }
    s.bad = bad;
    return s;
  }

  /** Number of parsed schedules. */
  get size(): number {
    return this.parsed.length;
  }

  /** Whether schedule `i` is open at instant `t` (ms since the epoch); false for -1. */
  isOpen(i: number, t: number): boolean {
    if (i < 0) return false;
    if (t >= this.from[i] && t < this.until[i]) return this.state[i] === 1;
    if (!(i < this.values.length)) return false;
    let oh = this.parsed[i];
    if (oh === undefined) {
      try {
        oh = new OpeningHours(this.values[i], null, 0);
      } catch {
        oh = null; // parsed when the snapshot was built, refused by this opening_hours: never open
      }
      this.parsed[i] = oh;
    }
    if (!oh) return false;
    let r = evaluate(oh, t);
    // In a host zone with daylight saving, a Nepal wall time can fall in the skipped
    // hour (it has no local Date), or a change can lie across a host transition.
    // Then evaluate under UTC, which has neither: the switch is synchronous, so no
    // other code of this thread sees it. Only a realm where neither the zone nor
    // `Date` can be switched gets "closed", and caches nothing.
    if (!r) r = underUtc(() => evaluate(oh, t)) ?? { open: false, until: t + 1 };
    this.from[i] = t;
    this.until[i] = r.until;
    this.state[i] = r.open ? 1 : 0;
    return r.open;
  }

  // a zeroed window [0, 0) is empty: the first query of a schedule evaluates it
  private grow(): void {
    if (this.parsed.length <= this.from.length) return;
    const cap = this.from.length * 2;
    const from = new Float64Array(cap),
      until = new Float64Array(cap),
      state = new Uint8Array(cap);
    from.set(this.from);
    until.set(this.until);
    state.set(this.state);
    this.from = from;
    this.until = until;
    this.state = state;
  }
}

const DAY = 86400000;
// a cached state never spans more than this: two host transitions cannot both fit in
// it, so equal offsets at its ends mean none lies inside
const MAX_WINDOW = 30 * DAY;

// The state at `t` and until when it holds; undefined when the host zone cannot
// represent the Nepal wall times involved (see `isOpen`).
function evaluate(oh: OpeningHours, t: number): { open: boolean; until: number } | undefined {
  const wall = nptWallDate(t);
  if (fromNptWall(wall) !== t) return undefined;
  let open = false;
  let next: Date | undefined;
  try {
    open = oh.getState(wall);
    next = oh.getNextChange(wall);
  } catch {
    return { open: false, until: t + 1 }; // the library failed at this instant: cache nothing
  }
  if (next && next.getTimezoneOffset() !== wall.getTimezoneOffset()) return undefined;
  const until = next ? Math.min(fromNptWall(next), t + MAX_WINDOW) : t + MAX_WINDOW;
  if (new Date(until - 1).getTimezoneOffset() !== wall.getTimezoneOffset()) return undefined;
  return { open, until };
}

// Runs `fn` with the host zone switched to UTC; undefined when it cannot be switched.
// Node: through TZ. A browser has no `process` and no zone switch, yet a host zone
// with daylight saving still makes the skipped hour and the crossings, so there `Date`
// itself is switched (see `withUtcDate`). Falling back to "closed" instead would be
// wrong for every open place in the skipped hour, and for a 24/7 place for the 30 days
// before each transition (its cached window crosses it).
function underUtc<T>(fn: () => T): T | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (!env) return withUtcDate(fn);
  const prev = env.TZ;
  if (prev === 'UTC') return fn();
  env.TZ = 'UTC';
  try {
    return fn();
  } finally {
    if (prev === undefined) delete env.TZ;
    else env.TZ = prev;
  }
}

const NativeDate = Date;

// A Date whose local fields are its UTC fields (the host zone as if it were UTC).
// Built from fields, it reads them as UTC; from an instant, a string or nothing, as Date.
class UtcDate extends NativeDate {
  constructor(...a: (number | string | Date)[]) {
    if (a.length < 2) super(a.length ? a[0]! : NativeDate.now());
    else {
      const n = a as number[];
      super(NativeDate.UTC(n[0]!, n[1]!, n[2] ?? 1, n[3] ?? 0, n[4] ?? 0, n[5] ?? 0, n[6] ?? 0));
    }
  }
  override getTimezoneOffset(): number {
    return 0;
  }
}
for (const f of ['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds']) {
  const from = NativeDate.prototype as unknown as Record<string, unknown>;
  const to = UtcDate.prototype as unknown as Record<string, unknown>;
  to[`get${f}`] = from[`getUTC${f}`];
  if (f !== 'Day') to[`set${f}`] = from[`setUTC${f}`];
}

// opening_hours names the global `Date` at each call (`new Date(y, m, d)`, `getDay()` on
// the Dates it makes), so with `UtcDate` in its place for the synchronous `fn` it
// computes in UTC, as under TZ=UTC. Undefined when the global cannot be replaced
// (a frozen realm).
function withUtcDate<T>(fn: () => T): T | undefined {
  const g = globalThis as { Date: DateConstructor };
  try {
    g.Date = UtcDate as DateConstructor;
  } catch {
    return undefined;
  }
  try {
    return fn();
  } finally {
    g.Date = NativeDate;
  }
}
