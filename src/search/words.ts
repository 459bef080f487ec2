import SearchableMap from 'minisearch/SearchableMap';
import type { PlaceTable } from '../model/table.js';
import { fold, letters } from './fold.js';

/** The tags a row is found by, in the order a name is chosen. */
export const NAME_FIELDS: readonly string[] = ['name', 'name:en', 'name:ne', 'alt_name', 'old_name'];

/** Words this long (in letters) or longer may carry one typo. */
export const TYPO_LETTERS = 5;

/**
 * Most distinct words a query may have (repeats count once). A name longer than this
 * is found by fewer of its words; the cap bounds the fixed cost per word (its run of
 * completions, its typo search in the radix tree).
 */
export const MAX_WORDS = 12;

/**
 * Most postings (a word's occurrence in a name) one query scores: the work of a query
 * is linear in them. At Nepal scale a one-letter word alone completes to 200,000;
 * on the Kathmandu fixture no word completes to more than 2,051, so every query
 * (12 words at most) stays below the cap and is scored in full. Above it, see
 * `Words.match`.
 */
export const MAX_POSTINGS = 40_000;

// Words are split at spaces, punctuation and symbols (`&`, `+`): MiniSearch's default
// plus tabs and symbols. Devanagari letters and signs are letters and marks, so they stay whole.
const BREAK = /[\s\p{Z}\p{P}\p{S}]+/u;

/** The folded words of a text, as the index sees them. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of text.split(BREAK)) {
    const f = fold(w);
    if (f) out.push(f);
  }
  return out;
}

/** The rows whose names match a query, and how well, in parallel arrays. */
export interface Hits {
  rows: number[];
  /** Text relevance: BM25+ of the row's best-matching name, higher is better. */
  scores: number[];
  /** Postings scored: the query's work, at most `MAX_POSTINGS`. */
  scored: number;
}

// BM25+ as MiniSearch scores it (its defaults): k saturates repeats of a word, b
// weighs the length of a name against the average, d is the floor of a match.
const K = 1.2, B = 0.7, D = 0.5;
// A word matched whole counts 1; completed from a prefix, MiniSearch's 0.375; corrected
// from a typo, 0.1: completing what was typed (`thame` → Thamel) must outrank
// correcting it into another word (`thame` → Theme), which MiniSearch's 0.45 lets a
// rare word do.
const PREFIX = 0.375, TYPO = 0.1;
// A former name still finds the place, but below one that bears the name today.
const OLD_NAME = NAME_FIELDS.indexOf('old_name');
const OLD_BOOST = 0.5;

/**
 * The full-text index of a table's named rows (places, localities, streets,
 * buildings: every row with a name), built once at load.
 *
 * Each distinct name of a row (`name`, `name:en`, `name:ne`, `alt_name`,
 * `old_name`, compared folded) is a document of its own, and a row scores as its
 * best-matching name: one document per row with a field per tag would add the
 * fields' scores, and a place whose `name:en` repeats its `name` would outrank an
 * equally good match named in one language only.
 *
 * The words live in MiniSearch's radix tree (`SearchableMap`), which finds those
 * one typo away, and in a sorted array, where the words a prefix completes are one
 * run; each word's documents are a run of flat arrays, scored BM25+ as MiniSearch
 * does into a reused accumulator.
 * MiniSearch's own `search` builds an object per matching document and word, and
 * spent about a microsecond per match on the fixture: a one-letter query took over
 * a millisecond.
 */
export class Words {
  /** Number of indexed rows. */
  readonly rows: number;
  /** Number of indexed names (documents). */
  readonly names: number;
  /** Distinct words. */
  readonly size: number;
  // The radix tree finds the words one typo away. Built on the first query that needs
  // it, from `sorted`: a load, or a snapshot's, should not pay for it up front.
  private dict: SearchableMap<number> | undefined;
  private readonly sorted: string[];
  private readonly sortedId: Uint32Array;
  private readonly docRow: Uint32Array;
  /** The first document of the same row. */
  private readonly docHead: Uint32Array;
  private readonly docLen: Uint16Array;
  private readonly docOld: Uint8Array;
  private readonly avgLen: number;
  private readonly start: Uint32Array;
  private readonly doc: Uint32Array;
  private readonly tf: Uint8Array;
  /** Postings of the words before each position of `sorted`: a prefix's run holds `cum[hi] - cum[lo]`. */
  private readonly cum: Float64Array;
  /**
   * Query contexts not in use. The arrays above never change after the build; all a query
   * writes is its context's, taken at its start and given back at its end (one, unless a
   * query runs inside another's `accept`). The first is made by the first query: 22 bytes
   * a name, that a load should not wait for.
   */
  private readonly free: Scratch[] = [];

  constructor(data: WordsData) {
    const { sorted, sortedId, docRow, docLen, docOld, avgLen, start, doc, tf } = data;
    const nDocs = docRow.length;
    // a row's names are consecutive documents
    const docHead = new Uint32Array(nDocs);
    let rows = 0;
    for (let d = 0; d < nDocs; d++) {
      if (d > 0 && docRow[d] === docRow[d - 1]) docHead[d] = docHead[d - 1];
      else { docHead[d] = d; rows++; }
    }
    this.rows = rows;
    this.names = nDocs;
    this.size = sorted.length;
    this.sorted = sorted;
    this.sortedId = sortedId;
    this.docRow = docRow;
    this.docHead = docHead;
    this.docLen = docLen;
    this.docOld = docOld;
    this.avgLen = avgLen;
    this.start = start;
    this.doc = doc;
    this.tf = tf;
    const cum = new Float64Array(sorted.length + 1);
    for (let k = 0; k < sorted.length; k++) cum[k + 1] = cum[k] + start[sortedId[k] + 1] - start[sortedId[k]];
    this.cum = cum;
  }

  /** The stored form of the index (for snapshots): its own arrays, not copies. */
  get data(): WordsData {
    const { sorted, sortedId, docRow, docLen, docOld, avgLen, start, doc, tf } = this;
    return { sorted, sortedId, docRow, docLen, docOld, avgLen, start, doc, tf };
  }

  /** Indexes the named rows of a table. */
  static build(t: PlaceTable): Words {
    // the string index of each name key (-1 when no tag has it): tags are compared by index
    const keyField = NAME_FIELDS.map((k) => t.strings.indexOf(k));
    const docRow: number[] = [], docLen: number[] = [], docOld: number[] = [];
    const pWord: number[] = [], pDoc: number[] = [], pTf: number[] = [];
    const ids = new Map<string, number>();
    // a tag value's words, by string index: names repeat (chains, copies), their words need finding once
    const parsed = new Map<number, Name | null>();
    const parse = (v: number): Name | null => {
      let name = parsed.get(v);
      if (name !== undefined) return name;
      const ws = words(t.strings[v]);
      name = null;
      if (ws.length) {
        name = { key: ws.join(' '), words: [], counts: [], length: ws.length };
        for (const w of ws) {
          let id = ids.get(w);
          if (id === undefined) ids.set(w, (id = ids.size));
          const i = name.words.indexOf(id);
          if (i >= 0) name.counts[i]++;
          else { name.words.push(id); name.counts.push(1); }
        }
      }
      parsed.set(v, name);
      return name;
    };
    const values: number[] = new Array(NAME_FIELDS.length);
    const names: string[] = [];
    let total = 0;
    for (let r = 0; r < t.size; r++) {
      if (t.strings[t.name[r]] === '') continue;
      values.fill(-1);
      for (let k = t.tagStart[r]; k < t.tagStart[r + 1]; k++) {
        const f = keyField.indexOf(t.tagKV[2 * k]);
        if (f >= 0) values[f] = t.tagKV[2 * k + 1];
      }
      names.length = 0;
      for (let f = 0; f < NAME_FIELDS.length; f++) {
        const name = values[f] < 0 ? null : parse(values[f]);
        if (!name || names.includes(name.key)) continue;
        names.push(name.key);
        const d = docRow.length;
        docRow.push(r);
        docLen.push(Math.min(name.length, 0xffff));
        docOld.push(f === OLD_NAME ? 1 : 0);
        total += name.length;
        for (let i = 0; i < name.words.length; i++) {
          pWord.push(name.words[i]);
          pDoc.push(d);
          pTf.push(Math.min(name.counts[i], 255));
        }
      }
    }
    const nWords = ids.size;
    const nDocs = docRow.length;
    // postings grouped by word (a counting sort), documents ascending within a word
    const start = new Uint32Array(nWords + 1);
    for (const w of pWord) start[w + 1]++;
    for (let w = 0; w < nWords; w++) start[w + 1] += start[w];
    const fill = start.slice(0, nWords);
    const doc = new Uint32Array(pWord.length);
    const tf = new Uint8Array(pWord.length);
    for (let i = 0; i < pWord.length; i++) {
      const at = fill[pWord[i]]++;
      doc[at] = pDoc[i];
      tf[at] = pTf[i];
    }
    const all: [string, number][] = [...ids];
    all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return new Words({
      sorted: all.map((e) => e[0]),
      sortedId: Uint32Array.from(all, (e) => e[1]),
      docRow: Uint32Array.from(docRow),
      docLen: Uint16Array.from(docLen),
      docOld: Uint8Array.from(docOld),
      avgLen: nDocs ? total / nDocs : 1,
      start,
      doc,
      tf,
    });
  }

  /**
   * The rows whose names match `q`, in no particular order: every word of the query
   * must match a word of one name of the row, whole, as a prefix, or (when it has
   * `TYPO_LETTERS` letters or more) whole with one typo; when no name matches them
   * all, the rows matching any word, ranked by how many they match. `accept` filters
   * rows. A word repeated in the query counts once; words after the first
   * `MAX_WORDS` distinct ones are not read (`search` refuses such queries).
   *
   * A query whose words match more than `MAX_POSTINGS` postings in all is scored on
   * that many: each word gets an equal share, a word needing less than its share
   * leaving the rest to the others. Within its share a word takes its whole-word
   * match first, then its completions rarest first (the highest BM25 weight, so
   * the top of the ranking changes least), then its typo corrections; the last word
   * taken may be cut, in index order. Below the cap the answer is exact.
   */
  match(q: string, accept?: (row: number) => boolean): Hits {
    const terms = [...new Set(words(q))].slice(0, MAX_WORDS);
    if (!terms.length || !this.names) return { rows: [], scores: [], scored: 0 };
    const c = this.free.pop() ?? new Scratch(this.names);
    try {
      return this.matchWith(c, terms, accept);
    } finally {
      this.free.push(c);
    }
  }

  private matchWith(c: Scratch, terms: string[], accept: ((row: number) => boolean) | undefined): Hits {
    if (++c.epoch === 0xffffffff) { c.seen.fill(0); c.headSeen.fill(0); c.epoch = 1; }
    const plans = terms.map((term) => this.plan(term));
    shares(plans, MAX_POSTINGS);
    const touched: number[] = [];
    let scored = 0;
    plans.forEach((p, i) => {
      scored += p.share >= p.postings ? this.all(c, p, i, touched) : this.some(c, p, i, touched);
    });
    const { docRow, docHead } = this;
    const { count, score, headSeen, headAt, epoch } = c;
    let need = terms.length;
    if (!touched.some((d) => count[d] === need)) need = 1;
    const hits: Hits = { rows: [], scores: [], scored };
    for (const d of touched) {
      if (count[d] < need) continue;
      // as MiniSearch: a document matching more of the query's words scores that many times more
      const s = score[d] * count[d];
      // a row's names are consecutive documents: the row is kept once, under its first, at its best
      const h = docHead[d];
      if (headSeen[h] === epoch) {
        const at = headAt[h];
        if (at >= 0 && s > hits.scores[at]) hits.scores[at] = s;
        continue;
      }
      headSeen[h] = epoch;
      if (accept && !accept(docRow[d])) { headAt[h] = -1; continue; }
      headAt[h] = hits.rows.length;
      hits.rows.push(docRow[d]);
      hits.scores.push(s);
    }
    return hits;
  }

  // A query word's matches: the run of `sorted` it is a prefix of (itself first, when it
  // is a word), its typo corrections, and how many postings they hold. The completions
  // come from the sorted array, not MiniSearch's atPrefix, which walks the radix tree
  // building every key: that cost more than the scoring for a one-letter prefix.
  private plan(term: string): Plan {
    const { sorted, sortedId, start, cum } = this;
    const lo = lowerBound(sorted, term);
    let hi = lo, top = sorted.length;
    // the run's end: the first word from `lo` on that does not start with the term
    while (hi < top) {
      const m = (hi + top) >> 1;
      if (sorted[m].startsWith(term)) hi = m + 1;
      else top = m;
    }
    const typos: number[] = [];
    let postings = cum[hi] - cum[lo];
    if (letters(term) >= TYPO_LETTERS) {
      for (const [w, [id, distance]] of this.typos().fuzzyGet(term, 1)) {
        // an exact word and a completion are in the run
        if (distance > 0 && !w.startsWith(term)) {
          typos.push(id, (TYPO * w.length) / (w.length + distance));
          postings += start[id + 1] - start[id];
        }
      }
    }
    return { term, lo, hi, typos, postings, share: postings };
  }

  // Scores all of a word's matches: the word itself, its completions in code-unit order,
  // its typos. Returns the postings scored.
  private all(c: Scratch, p: Plan, i: number, touched: number[]): number {
    const { sorted, sortedId } = this;
    const n = p.term.length;
    let scored = 0;
    for (let k = p.lo; k < p.hi; k++) {
      const w = sorted[k];
      if (w.length === n) scored += this.add(c, sortedId[k], 1, i, touched, Infinity);
      else scored += this.add(c, sortedId[k], (PREFIX * w.length) / (w.length + 0.3 * (w.length - n)), i, touched, Infinity);
    }
    for (let k = 0; k < p.typos.length; k += 2) scored += this.add(c, p.typos[k], p.typos[k + 1], i, touched, Infinity);
    return scored;
  }

  // Scores a word's matches up to its share of postings: the word itself, then its
  // completions rarest first (by powers of two of their counts, in code-unit order
  // within one), then its typos; the last taken may be cut. Returns the postings scored.
  private some(c: Scratch, p: Plan, i: number, touched: number[]): number {
    const { sorted, sortedId, start } = this;
    const n = p.term.length;
    let left = p.share;
    const take = (id: number, weight: number) => {
      if (left > 0) left -= this.add(c, id, weight, i, touched, left);
    };
    let from = p.lo;
    if (from < p.hi && sorted[from].length === n) take(sortedId[from++], 1);
    // the completions by the bit length of their counts (rarer first), one pass per length present
    const bits = new Uint8Array(p.hi - from);
    const present = new Uint8Array(33);
    for (let k = from; k < p.hi; k++) {
      const b = 32 - Math.clz32(start[sortedId[k] + 1] - start[sortedId[k]]);
      bits[k - from] = b;
      present[b] = 1;
    }
    for (let b = 1; b <= 32 && left > 0; b++) {
      if (!present[b]) continue;
      for (let k = from; k < p.hi && left > 0; k++) {
        if (bits[k - from] !== b) continue;
        const w = sorted[k];
        take(sortedId[k], (PREFIX * w.length) / (w.length + 0.3 * (w.length - n)));
      }
    }
    for (let k = 0; k < p.typos.length; k += 2) take(p.typos[k], p.typos[k + 1]);
    return p.share - left;
  }

  /**
   * Builds now what the first queries would build (the per-query scratch, the radix
   * tree of typos): a server calls it at start, so that no request pays for it. At
   * Nepal scale the tree of 5,663 words takes about 60 ms; a real country's 150,000
   * words about half a second.
   */
  prepare(): void {
    if (!this.free.length) this.free.push(new Scratch(this.names));
    this.typos();
  }

  private typos(): SearchableMap<number> {
    if (!this.dict) {
      const dict = new SearchableMap<number>();
      this.sorted.forEach((w, k) => dict.set(w, this.sortedId[k]));
      this.dict = dict;
    }
    return this.dict;
  }

  // Adds word `id`'s documents (the first `max` of them), at `weight`, as matches of the
  // query's word `i`. Returns how many it added.
  private add(c: Scratch, id: number, weight: number, i: number, touched: number[], max: number): number {
    const { start, doc, tf, docLen, docOld } = this;
    const { score, count, lastTerm, seen, epoch } = c;
    const df = start[id + 1] - start[id];
    const idf = Math.log(1 + (this.names - df + 0.5) / (df + 0.5));
    const norm = K * (1 - B);
    const perLen = (K * B) / this.avgLen;
    const end = Math.min(start[id + 1], start[id] + max);
    for (let k = start[id]; k < end; k++) {
      const d = doc[k];
      if (seen[d] !== epoch) {
        seen[d] = epoch;
        score[d] = 0;
        count[d] = 0;
        lastTerm[d] = -1;
        touched.push(d);
      }
      const f = tf[k];
      const s = weight * idf * (D + (f * (K + 1)) / (f + norm + perLen * docLen[d]));
      score[d] += docOld[d] ? s * OLD_BOOST : s;
      if (lastTerm[d] !== i) { lastTerm[d] = i; count[d]++; }
    }
    return end - start[id];
  }
}

/** One query's scratch, by document; `seen` and `headSeen` hold the query (epoch) that last touched it. */
class Scratch {
  readonly score: Float64Array;
  readonly count: Uint16Array;
  readonly lastTerm: Int16Array;
  readonly seen: Uint32Array;
  readonly headSeen: Uint32Array;
  readonly headAt: Int32Array;
  epoch = 0;
  constructor(n: number) {
    this.score = new Float64Array(n);
    this.count = new Uint16Array(n);
    this.lastTerm = new Int16Array(n);
    this.seen = new Uint32Array(n);
    this.headSeen = new Uint32Array(n);
    this.headAt = new Int32Array(n);
  }
}

// The first index of a sorted array whose string is not below `s` (code-unit order).
function lowerBound(a: string[], s: string): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (a[m] < s) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/**
 * What a `Words` index is made of, as flat arrays: the words, and per document its
 * row, its length in words and whether it is an `old_name`; `start[w]..start[w+1]`
 * are word w's documents in `doc`, with the word's count in each in `tf`.
 */
export interface WordsData {
  /** The distinct words in code-unit order (a prefix's completions are one run), and their ids. */
  sorted: string[];
  sortedId: Uint32Array;
  docRow: Uint32Array;
  docLen: Uint16Array;
  docOld: Uint8Array;
  /** Mean length of a document in words (before `docLen` caps it). */
  avgLen: number;
  start: Uint32Array;
  doc: Uint32Array;
  tf: Uint8Array;
}

/** How a query word is matched: its run of completions, its typos and its share of the postings. */
interface Plan {
  term: string;
  /** `sorted[lo..hi)` start with the term. */
  lo: number;
  hi: number;
  /** Typo corrections: pairs of word id and weight. */
  typos: number[];
  /** Postings of the run and the typos. */
  postings: number;
  /** How many of them may be scored. */
  share: number;
}

/**
 * Shares `budget` postings among the words of a query: equal shares, the words that
 * need less than theirs (the fewest first) leaving the rest to the others. Sets each
 * plan's `share`; when all fit, every share is the word's whole need.
 */
function shares(plans: Plan[], budget: number): void {
  let total = 0;
  for (const p of plans) total += p.postings;
  if (total <= budget) return;
  const order = [...plans].sort((a, b) => a.postings - b.postings);
  let left = budget;
  order.forEach((p, k) => {
    p.share = Math.min(p.postings, Math.floor(left / (order.length - k)));
    left -= p.share;
  });
}

/** A name as the index keeps it: its words (ids, distinct, with their counts) and length in words. */
interface Name {
  /** The folded words joined: equal keys are one name. */
  key: string;
  words: number[];
  counts: number[];
  length: number;
}
