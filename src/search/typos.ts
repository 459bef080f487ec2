/**
 * The words of a sorted list one typo away from a word: one letter changed, added or dropped
 * (Levenshtein distance 1, in UTF-16 code units, as MiniSearch's `fuzzyGet(term, 1)` counts it).
 *
 * Written here: MiniSearch's radix tree walks a Levenshtein matrix down every branch within
 * reach and took 36–144 µs per word on the fixture's 5,663 words, the largest part of a search.
 * One typo leaves either the word's first half or its second half untouched, so the words one
 * typo away are among those that begin with its first half (a run of the sorted words) or end
 * with its second (a run of the same words ordered backwards): a few binary searches and a
 * check of the words of similar length in two runs.
 */
export class Typos {
  private readonly sorted: readonly string[];
  /** Positions in `sorted`, ordered by their words read backwards: the words a suffix ends are one run. */
  private readonly back: Uint32Array;

  private constructor(sorted: readonly string[], back: Uint32Array) {
    this.sorted = sorted;
    this.back = back;
  }

  /**
   * Builds the index of `sorted` (distinct words in code-unit order) in steps of `step` words,
   * for a server that builds it while it answers: each `next()` does a part and yields what;
   * the generator returns the index.
   */
  static *build(sorted: readonly string[], step: number): Generator<string, Typos> {
    let runs: [string, number][][] = [];
    for (let k0 = 0; k0 < sorted.length; k0 += step) {
      const run: [string, number][] = [];
      for (let k = k0; k < Math.min(k0 + step, sorted.length); k++) run.push([backwards(sorted[k]), k]);
      runs.push(run.sort(byKeyThenValue));
      yield 'typos';
    }
    const pairs = yield* mergeRuns(runs, step * 16, 'typos');
    runs = [];
    return new Typos(
      sorted,
      Uint32Array.from(pairs, (p) => p[1]),
    );
  }

  /**
   * The positions in the sorted words of those one typo away from `term`, ascending, without
   * `term` itself and (unless `completions`) without the words that start with it.
   */
  near(term: string, completions = false): number[] {
    const { sorted, back } = this;
    const n = term.length;
    const out: number[] = [];
    if (!n) return out;
    // one edit at or past h leaves term[0, h) in front; one before h leaves term[h, n) at the end
    const h = n >> 1;
    const head = term.slice(0, h),
      tail = term.slice(h);
    const ok = (w: string) => Math.abs(w.length - n) <= 1 && w !== term && (completions || !w.startsWith(term)) && oneApart(w, term);
    // the words that begin with head
    let lo = lowerBound(sorted, head),
      hi = lo,
      top = sorted.length;
    while (hi < top) {
      const m = (hi + top) >> 1;
      if (sorted[m].startsWith(head)) hi = m + 1;
      else top = m;
    }
    for (let k = lo; k < hi; k++) if (ok(sorted[k])) out.push(k);
    // the words that end with tail and do not begin with head (those were read above)
    const from = out.length;
    const key = backwards(tail);
    lo = 0;
    top = back.length;
    while (lo < top) {
      const m = (lo + top) >> 1;
      if (compareBackwards(sorted[back[m]], key) < 0) lo = m + 1;
      else top = m;
    }
    hi = lo;
    top = back.length;
    while (hi < top) {
      const m = (hi + top) >> 1;
      if (sorted[back[m]].endsWith(tail)) hi = m + 1;
      else top = m;
    }
    for (let k = lo; k < hi; k++) {
      const w = sorted[back[k]];
      if (!w.startsWith(head) && ok(w)) out.push(back[k]);
    }
    if (out.length > from) out.sort((a, b) => a - b);
    return out;
  }
}

/**
 * Whether two strings are at most one edit apart (one code unit changed, added or dropped): what
 * their common start and common end leave of the longer is one unit at most.
 */
export function oneApart(a: string, b: string): boolean {
  const la = a.length,
    lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  const min = Math.min(la, lb);
  let i = 0;
  while (i < min && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  let j = 0;
  while (j < min - i && a.charCodeAt(la - 1 - j) === b.charCodeAt(lb - 1 - j)) j++;
  return Math.max(la, lb) - i - j <= 1;
}

// A string's code units in reverse order (a key for ordering only: a surrogate pair comes out reversed).
function backwards(s: string): string {
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) out += s[i];
  return out;
}

// `backwards(w)` compared with `key` in code-unit order, without building it.
function compareBackwards(w: string, key: string): number {
  const n = Math.min(w.length, key.length);
  for (let i = 0; i < n; i++) {
    const d = w.charCodeAt(w.length - 1 - i) - key.charCodeAt(i);
    if (d) return d;
  }
  return w.length - key.length;
}

/** The first index of a sorted array whose string is not below `s` (code-unit order). */
export function lowerBound(a: readonly string[], s: string): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (a[m] < s) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** Pairs ordered by their string, then their number. */
export const byKeyThenValue = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]);

/**
 * Sorted runs of pairs (`byKeyThenValue`) merged into one, a pair of runs at a time, yielding
 * `label` every `step` pairs: the order of one sort of them all, in steps a server can take
 * between requests.
 */
export function* mergeRuns(runs: [string, number][][], step: number, label: string): Generator<string, [string, number][]> {
  while (runs.length > 1) {
    const next: [string, number][][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      if (r + 1 >= runs.length) {
        next.push(runs[r]);
        continue;
      }
      const a = runs[r],
        b = runs[r + 1];
      const out: [string, number][] = new Array(a.length + b.length);
      let i = 0,
        j = 0;
      for (let k = 0; k < out.length; k++) {
        out[k] = j >= b.length || (i < a.length && byKeyThenValue(a[i], b[j]) <= 0) ? a[i++] : b[j++];
        if (k % step === step - 1) yield label;
      }
      next.push(out);
      yield label;
    }
    runs = next;
  }
  return runs[0] ?? [];
}
