import SearchableMap from 'minisearch/SearchableMap';
import type { PlaceTable } from '../model/table.js';
import { fold, letters } from './fold.js';

/** The tags a row is found by, in the order a name is chosen. */
export const NAME_FIELDS: readonly string[] = ['name', 'name:en', 'name:ne', 'alt_name', 'old_name'];

/** Words this long (in letters) or longer may carry one typo. */
export const TYPO_LETTERS = 5;

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
  // Per-query scratch, by document; `seen` holds the query that last touched it.
  // Allocated by the first query: 22 bytes a name, that a load should not wait for.
  private score = new Float64Array(0);
  private count = new Uint16Array(0);
  private lastTerm = new Int16Array(0);
  private seen = new Uint32Array(0);
  private headSeen = new Uint32Array(0);
  private headAt = new Int32Array(0);
  private epoch = 0;

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
   * rows.
   */
  match(q: string, accept?: (row: number) => boolean): Hits {
    const terms = words(q).slice(0, 0x7fff);
    if (!terms.length || !this.names) return { rows: [], scores: [] };
    if (this.score.length < this.names) {
      const n = this.names;
      this.score = new Float64Array(n);
      this.count = new Uint16Array(n);
      this.lastTerm = new Int16Array(n);
      this.seen = new Uint32Array(n);
      this.headSeen = new Uint32Array(n);
      this.headAt = new Int32Array(n);
    }
    if (++this.epoch === 0xffffffff) { this.seen.fill(0); this.headSeen.fill(0); this.epoch = 1; }
    const touched: number[] = [];
    terms.forEach((term, i) => {
      // the word itself, then its completions: MiniSearch's atPrefix walks the radix tree
      // building every key, which cost more than the scoring for a one-letter prefix
      const { sorted, sortedId } = this;
      for (let k = lowerBound(sorted, term); k < sorted.length && sorted[k].startsWith(term); k++) {
        const w = sorted[k];
        if (w.length === term.length) this.add(sortedId[k], 1, i, touched);
        else this.add(sortedId[k], (PREFIX * w.length) / (w.length + 0.3 * (w.length - term.length)), i, touched);
      }
      if (letters(term) >= TYPO_LETTERS) {
        for (const [w, [id, distance]] of this.typos().fuzzyGet(term, 1)) {
          // an exact word and a completion were scored above
          if (distance > 0 && !w.startsWith(term)) this.add(id, (TYPO * w.length) / (w.length + distance), i, touched);
        }
      }
    });
    const { count, score, docRow, docHead, headSeen, headAt, epoch } = this;
    let need = terms.length;
    if (!touched.some((d) => count[d] === need)) need = 1;
    const hits: Hits = { rows: [], scores: [] };
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

  private typos(): SearchableMap<number> {
    if (!this.dict) {
      const dict = new SearchableMap<number>();
      this.sorted.forEach((w, k) => dict.set(w, this.sortedId[k]));
      this.dict = dict;
    }
    return this.dict;
  }

  // Adds word `id`'s documents, at `weight`, as matches of the query's word `i`.
  private add(id: number, weight: number, i: number, touched: number[]): void {
    const { start, doc, tf, docLen, docOld, score, count, lastTerm, seen, epoch } = this;
    const df = start[id + 1] - start[id];
    const idf = Math.log(1 + (this.names - df + 0.5) / (df + 0.5));
    const norm = K * (1 - B);
    const perLen = (K * B) / this.avgLen;
    for (let k = start[id]; k < start[id + 1]; k++) {
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

/** A name as the index keeps it: its words (ids, distinct, with their counts) and length in words. */
interface Name {
  /** The folded words joined: equal keys are one name. */
  key: string;
  words: number[];
  counts: number[];
  length: number;
}
