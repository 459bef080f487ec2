import type { PlaceTable } from '../model/table.js';
import { List } from '../model/list.js';
import { fold, letters } from './fold.js';
import { matchKeys, OPTIONAL_WORDS } from '../lang/glossary.js';
import { phoneticKey, scriptOf, spelledLetters, vowelKey } from '../lang/translit.js';
import { Typos, byKeyThenValue, lowerBound, mergeRuns } from './typos.js';

/** The tags a row is found by, in the order a name is chosen. */
export const NAME_FIELDS: readonly string[] = ['name', 'name:en', 'name:ne', 'alt_name', 'old_name'];

/** Words this long (in letters) or longer may carry one typo. */
export const TYPO_LETTERS = 5;

/**
 * Most distinct words a query may have (repeats count once). A name longer than this
 * is found by fewer of its words; the cap bounds the fixed cost per word (its run of
 * completions, its typo search).
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
  /** Text relevance, higher is better: BM25+ of the row's best-matching name, in the interval of its tier (see `stack`). */
  scores: number[];
  /** Postings of names scored: the query's work by letters, at most `MAX_POSTINGS`. */
  scored: number;
  /** Postings of phonetic keys scored: at most what `scored` leaves of `MAX_POSTINGS`. */
  soundScored: number;
}

// BM25+ as MiniSearch scores it (its defaults): k saturates repeats of a word, b
// weighs the length of a name against the average, d is the floor of a match.
const K = 1.2,
  B = 0.7,
  D = 0.5;
// A word matched whole counts 1; completed from a prefix, MiniSearch's 0.375; corrected
// from a typo, 0.1: completing what was typed (`thame` → Thamel) must outrank
// correcting it into another word (`thame` → Theme), which MiniSearch's 0.45 lets a
// rare word do.
const PREFIX = 0.375,
  TYPO = 0.1;
// A former name still finds the place, but below one that bears the name today.
const OLD_NAME = NAME_FIELDS.indexOf('old_name');
const OLD_BOOST = 0.5;

/** What a document is, in `WordsData.docOld`: a name as tagged, or a former name (`old_name`). */
export const NAME = 0,
  OLD = 1;
// A word matched by sound or meaning (`lang/`: the same name in the other script, spelled
// otherwise, or translated) weighs below a completion of what was typed and above a typo's
// correction: the same name typed as tagged ranks first, but a short name matched by sound can
// still beat a long one matched by letters.
const SOUND = 0.6;
// A word matched by meaning (`temple` मन्दिर), a share of SOUND: below the same name by sound
// (`marga` मार्ग before सडक).
const MEANING = 0.8;
// A name the query matches whole (as many words matched as the name has) weighs this many times
// more: the place called काठमाडौं, found by sound, is a better answer to `kathmandu` than Hilton
// Kathmandu, found by its letters; the name spelled as typed still ranks first (its words weigh
// more), and a query with a word more than a name (`everland kathmandu hotel thamel`) still
// finds the name whole among the names with some of its words.
const WHOLE = 2;
// A short key matches more names by chance (`thame`, half typed, is `tm` as Tom and Time are;
// `Mai` is `m`): a key weighs SOUND from four letters on, these shares of it below.
const BY_KEY_LENGTH = [0, 0.1, 0.25, 0.66];
// A key is cut into keys this long or longer, each of a word of a name (see `splits`).
const MIN_SPLIT = 2;
// Keys this long or longer also complete as a prefix (`kathm` → `ktm` finds काठमाडौं, `ktmd`).
const MIN_KEY_PREFIX = 3;

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
 * The words live in a sorted array, where the words a prefix completes are one run
 * (and, ordered backwards, those a suffix ends: `search/typos.ts` finds the words one
 * typo away by both); each word's documents are a run of flat arrays, scored BM25+ as MiniSearch
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
  // The words one typo away (search/typos.ts). Built on the first query that needs it, from
  // `sorted`: a load, or a snapshot's, should not pay for it up front.
  private dict: Typos | undefined;
  // The words by phonetic key, for matches by sound: built like `dict`, on first need.
  private byKey: Sounds | undefined;
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
   * query runs inside another's `accept`). The first is made by the first query: 26 bytes
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
      else {
        docHead[d] = d;
        rows++;
      }
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
    // typed lists, not arrays of numbers: at Nepal scale the postings are tens of millions
    const docRow = new List(Uint32Array),
      docLen = new List(Uint32Array),
      docOld = new List(Uint8Array);
    const pWord = new List(Uint32Array, 1 << 16),
      pDoc = new List(Uint32Array, 1 << 16),
      pTf = new List(Uint8Array, 1 << 16);
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
          else {
            name.words.push(id);
            name.counts.push(1);
          }
        }
      }
      parsed.set(v, name);
      return name;
    };
    const values: number[] = new Array(NAME_FIELDS.length);
    const names: string[] = [];
    let total = 0;
    const addDoc = (r: number, kind: number, name: Name) => {
      const d = docRow.length;
      docRow.push(r);
      docLen.push(Math.min(name.length, 0xffff));
      docOld.push(kind);
      total += name.length;
      for (let i = 0; i < name.words.length; i++) {
        pWord.push(name.words[i]);
        pDoc.push(d);
        pTf.push(Math.min(name.counts[i], 255));
      }
    };
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
        addDoc(r, f === OLD_NAME ? OLD : NAME, name);
      }
    }
    const nWords = ids.size;
    const nDocs = docRow.length;
    // postings grouped by word (a counting sort), documents ascending within a word
    const start = new Uint32Array(nWords + 1);
    const pw = pWord.data,
      pd = pDoc.data,
      pt = pTf.data,
      n = pWord.length;
    for (let i = 0; i < n; i++) start[pw[i] + 1]++;
    for (let w = 0; w < nWords; w++) start[w + 1] += start[w];
    const fill = start.slice(0, nWords);
    const doc = new Uint32Array(n);
    const tf = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const at = fill[pw[i]]++;
      doc[at] = pd[i];
      tf[at] = pt[i];
    }
    const all: [string, number][] = [...ids];
    all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return new Words({
      sorted: all.map((e) => e[0]),
      sortedId: Uint32Array.from(all, (e) => e[1]),
      docRow: docRow.copy(),
      docLen: Uint16Array.from(docLen.view()),
      docOld: docOld.copy(),
      avgLen: nDocs ? total / nDocs : 1,
      start,
      doc,
      tf,
    });
  }

  /**
   * The rows whose names match `q`, in no particular order: every word of the query
   * must match a word of one name of the row, whole, as a prefix, or (when it has
   * `TYPO_LETTERS` letters or more) whole with one typo, or by sound: a word of the name
   * has the same key (`lang/glossary.ts` `matchKey`: the same name in the other script,
   * spelled otherwise, or a glossary word's translation; a phonetic key has three letters
   * or more and completes as a prefix), weighing 0.3 (a completion 0.375, a typo 0.1). When no name matches every word, the
   * rows matching any word by its letters come back, ranked by how many they match, below
   * every full match. `accept` filters rows. A word repeated in the query counts once; words after the first
   * `MAX_WORDS` distinct ones are not read (`search` refuses such queries).
   *
   * A query whose words match more than `MAX_POSTINGS` postings in all is scored on
   * that many: each word gets an equal share, a word needing less than its share
   * leaving the rest to the others. Within its share a word takes its whole-word
   * match first, then its completions rarest first (the highest BM25 weight, so
   * the top of the ranking changes least), then its typo corrections; the last word
   * taken may be cut, in index order. Below the cap the answer is exact.
   *
   * `letters`: by their letters alone (no sounds, meanings or words joined), MiniSearch's
   * `search` with the same options (every word, else any; the bench compares the two).
   */
  match(q: string, accept?: (row: number) => boolean, options: { letters?: boolean } = {}): Hits {
    const terms = [...new Set(words(q))].slice(0, MAX_WORDS);
    if (!terms.length || !this.names) return { rows: [], scores: [], scored: 0, soundScored: 0 };
    const c = this.free.pop() ?? new Scratch(this.names);
    try {
      return this.matchWith(c, terms, accept, options.letters === true);
    } finally {
      this.free.push(c);
    }
  }

  private matchWith(c: Scratch, terms: string[], accept: ((row: number) => boolean) | undefined, letters: boolean): Hits {
    if (++c.epoch === 0xffffffff) {
      c.seen.fill(0);
      c.headSeen.fill(0);
      c.epoch = 1;
    }
    const plans = terms.map((term) => this.plan(term));
    shares(plans, MAX_POSTINGS);
    c.touched = 0;
    let scored = 0;
    plans.forEach((p, i) => {
      scored += p.share >= p.postings ? this.all(c, p, i) : this.some(c, p, i);
    });
    // then each word by sound, the words that share its phonetic key (ठमेल for thamel), with
    // what the letters leave of the cap: a query's work stays within MAX_POSTINGS in all
    const soundScored = letters ? 0 : this.bySound(c, terms, plans, MAX_POSTINGS - scored);
    const { docRow, docHead, docLen } = this;
    const { mask, spelled, score, headSeen, headAt, epoch } = c;
    const all = (1 << terms.length) - 1;
    // the words a name in the other language may lack (`the`, `of`, `pvt`): not needed by sound
    let optional = 0;
    terms.forEach((t, i) => {
      if (OPTIONAL_WORDS.has(t)) optional |= 1 << i;
    });
    // every word matched; or, some by sound, every word but optional ones
    const full = (d: number) => mask[d] === all || (mask[d] !== spelled[d] && (mask[d] | optional) === all);
    // The tier of a name's match: 0 every word, by its letters or by sound; 2 some words, which
    // counts only when no name has every word: by their letters, or by sound half the query's
    // words at least (one word matched by sound alone is mostly chance).
    const tierOf = (d: number) => (full(d) ? 0 : spelled[d] || 2 * bits(mask[d]) >= terms.length ? 2 : -1);
    let partial = true;
    const { docs, touched } = c;
    for (let k = 0; k < touched; k++)
      if (full(docs[k])) {
        partial = false;
        break;
      }
    const hits: Hits = { rows: [], scores: [], scored, soundScored };
    const tiers: number[] = [];
    for (let k = 0; k < touched; k++) {
      const d = docs[k];
      const tier = tierOf(d);
      if (tier < 0 || (tier === 2 && !partial)) continue;
      // as MiniSearch: a document matching more of the query's words scores that many times more;
      // and a name all of whose words the query matched, WHOLE times more
      const matched = bits(mask[d]);
      const s = score[d] * matched * (matched >= docLen[d] ? WHOLE : 1);
      // a row's names are consecutive documents: the row is kept once, under its first, at its best
      const h = docHead[d];
      if (headSeen[h] === epoch) {
        const at = headAt[h];
        if (at < 0) continue;
        if (tier < tiers[at] || (tier === tiers[at] && s > hits.scores[at])) {
          tiers[at] = tier;
          hits.scores[at] = s;
        }
        continue;
      }
      headSeen[h] = epoch;
      if (accept && !accept(docRow[d])) {
        headAt[h] = -1;
        continue;
      }
      headAt[h] = hits.rows.length;
      hits.rows.push(docRow[d]);
      hits.scores.push(s);
      tiers.push(tier);
    }
    stack(hits.scores, tiers);
    return hits;
  }

  // Scores the query's words by their other readings (sound, meaning, words joined or split,
  // letters spelled out), while `left` postings allow. Returns the postings scored.
  private bySound(c: Scratch, terms: string[], plans: Plan[], left: number): number {
    // a word the index has: its keys were made with the index
    const { wordKeys, spoken } = this.sounds();
    const idOf = (term: string, lo = lowerBound(this.sorted, term)) => (this.sorted[lo] === term ? this.sortedId[lo] : -1);
    const known = terms.map((term, i) => idOf(term, plans[i].lo));
    const keys = terms.map((term, i) => (known[i] >= 0 ? wordKeys[known[i]] : matchKeys(term)));
    const sounds = terms.map((term, i) => this.soundPlan(keys[i], 1 << i, plans[i], known[i] >= 0 ? spoken[known[i]] : vowelKey(term)));
    // and two words together, which the other script may write as one (Indra Chowk इन्द्रचोक,
    // न्यू रोड Newroad), and letters spelled one by one (आर एन ए सी RNAC, R.S. आर. एस.)
    for (let i = 0; i + 1 < terms.length; i++) {
      const a = terms[i],
        b = terms[i + 1];
      if (LETTER.test(a) && LETTER.test(b) && scriptOf(a) === scriptOf(b)) {
        const id = idOf(a + b);
        sounds.push(
          this.soundPlan(
            (id >= 0 ? wordKeys[id] : matchKeys(a + b)).map((k) => `${k}!`),
            3 << i,
          ),
        );
      }
    }
    for (const run of letterRuns(terms)) sounds.push(this.soundPlan([`@${run.letters}`], run.bits));
    let scored = 0;
    for (const p of sounds) {
      const got = this.sound(c, p, left);
      left -= got;
      scored += got;
    }
    // and a word the other script writes as two or more (इन्द्रचोक Indra Chowk, SBI एस.बी.आई.)
    keys.forEach((k, i) => {
      for (const parts of this.splits(k)) {
        const got = this.together(c, parts, 1 << i, left);
        left -= got;
        scored += got;
      }
    });
    return scored;
  }

  // A query word's matches: the run of `sorted` it is a prefix of (itself first, when it
  // is a word), its typo corrections, and how many postings they hold. The completions
  // come from the sorted array, not MiniSearch's atPrefix, which walks its radix tree
  // building every key: that cost more than the scoring for a one-letter prefix.
  private plan(term: string): Plan {
    const { sorted, start, cum } = this;
    const lo = lowerBound(sorted, term);
    let hi = lo,
      top = sorted.length;
    // the run's end: the first word from `lo` on that does not start with the term
    while (hi < top) {
      const m = (hi + top) >> 1;
      if (sorted[m].startsWith(term)) hi = m + 1;
      else top = m;
    }
    const typos: number[] = [];
    let postings = cum[hi] - cum[lo];
    if (letters(term) >= TYPO_LETTERS) {
      // an exact word and a completion are in the run
      for (const k of this.typos().near(term)) {
        const id = this.sortedId[k],
          w = sorted[k];
        typos.push(id, (TYPO * w.length) / (w.length + 1));
        postings += start[id + 1] - start[id];
      }
    }
    return { term, lo, hi, typos, postings, share: postings };
  }

  // Scores all of a word's matches: the word itself, its completions in code-unit order,
  // its typos. Returns the postings scored.
  private all(c: Scratch, p: Plan, i: number): number {
    const { sorted, sortedId } = this;
    const n = p.term.length;
    let scored = 0;
    for (let k = p.lo; k < p.hi; k++) {
      const w = sorted[k];
      if (w.length === n) scored += this.add(c, sortedId[k], 1, 1 << i, Infinity);
      else scored += this.add(c, sortedId[k], (PREFIX * w.length) / (w.length + 0.3 * (w.length - n)), 1 << i, Infinity);
    }
    for (let k = 0; k < p.typos.length; k += 2) scored += this.add(c, p.typos[k], p.typos[k + 1], 1 << i, Infinity);
    return scored;
  }

  // Scores a word's matches up to its share of postings: the word itself, then its
  // completions rarest first (by powers of two of their counts, in code-unit order
  // within one), then its typos; the last taken may be cut. Returns the postings scored.
  private some(c: Scratch, p: Plan, i: number): number {
    const { sorted, sortedId, start } = this;
    const n = p.term.length;
    let left = p.share;
    const take = (id: number, weight: number) => {
      if (left > 0) left -= this.add(c, id, weight, 1 << i, left);
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

  // A query word's matches by sound: the words of the index with one of its keys (or, for a
  // phonetic key of MIN_KEY_PREFIX letters or more, a key it starts), less those its letters
  // matched (`byLetters`); `bits`: the query's words they match; `said`: the word's vowelKey.
  private soundPlan(keysOf: string[], bits: number, byLetters?: Plan, said?: string): SoundPlan {
    const { keys, keyWord, pos, spoken } = this.sounds();
    const ids: number[] = [],
      weights: number[] = [];
    const taken = new Set<number>();
    // a key one letter past a name's (Himalayan for हिमालय, Citizens for सिटिजन): that one too, whole
    const first = keysOf[0];
    if (first !== undefined && !sure(first) && !first.endsWith('!') && first.length >= 4) keysOf = [...keysOf, `${first.slice(0, -1)}!`];
    for (let key of keysOf) {
      const whole = key.endsWith('!');
      if (whole) key = key.slice(0, -1);
      // spelled letters are sure, a meaning nearly; a sound the surer the longer its key, or
      // when the vowels agree too (बैंक for bank, not बुक)
      const weight = key.startsWith('@') ? SOUND : key.startsWith('=') ? SOUND * MEANING : SOUND * (BY_KEY_LENGTH[key.length] ?? 1);
      const lo = lowerBound(keys, key);
      let hi = lo;
      if (whole || sure(key) || key.length < MIN_KEY_PREFIX) while (hi < keys.length && keys[hi] === key) hi++;
      else {
        let top = keys.length;
        while (hi < top) {
          const m = (hi + top) >> 1;
          if (keys[m].startsWith(key)) hi = m + 1;
          else top = m;
        }
      }
      for (let k = lo; k < hi; k++) {
        const id = keyWord[k],
          at = pos[id];
        if (byLetters && at >= byLetters.lo && at < byLetters.hi) continue;
        if (taken.has(id)) continue;
        let typo = false;
        if (byLetters) for (let t = 0; t < byLetters.typos.length; t += 2) if (byLetters.typos[t] === id) typo = true;
        if (!typo) {
          taken.add(id);
          ids.push(id);
          weights.push(weight < SOUND && said !== undefined && !sure(key) && close(said, spoken[id]) ? SOUND : weight);
        }
      }
    }
    return { ids, weights, bits };
  }

  // Scores a word's matches by sound, rarest first when they hold more than `max` postings.
  // Returns the postings scored.
  private sound(c: Scratch, plan: SoundPlan, max: number): number {
    const { start } = this;
    const size = (k: number) => start[plan.ids[k] + 1] - start[plan.ids[k]];
    let need = 0;
    const order = plan.ids.map((_, k) => k);
    for (const k of order) need += size(k);
    if (need > max) order.sort((a, b) => size(a) - size(b));
    let left = max;
    for (const k of order) {
      if (left <= 0) break;
      left -= this.add(c, plan.ids[k], plan.weights[k], plan.bits, left, true);
    }
    return max - left;
  }

  // The ways a query word may be written as several words of a name: its phonetic key cut in
  // two keys of MIN_SPLIT letters or more that words of the index have (`adrck`: `adr` and `ck`),
  // or its letters spelled one by one (`@sbi`: `@s`, `@b` and `@i`). Each way: the keys' words
  // and the weight of its matches.
  private splits(keysOf: string[]): { ids: number[][]; weight: number }[] {
    const out: { ids: number[][]; weight: number }[] = [];
    const with_ = (keys: string[], weight: number) => {
      const ids = keys.map((k) => this.wordsOf(k));
      if (ids.every((x) => x.length)) out.push({ ids, weight });
    };
    for (const key of keysOf) {
      if (key.startsWith('@')) {
        if (key.length > 2)
          with_(
            [...key.slice(1)].map((l) => `@${l}`),
            SOUND,
          );
      } else if (!key.startsWith('=')) {
        if (key.length >= 2 * MIN_SPLIT + 1)
          for (let p = MIN_SPLIT; p + MIN_SPLIT <= key.length; p++)
            with_([key.slice(0, p), key.slice(p)], SOUND * (BY_KEY_LENGTH[key.length] ?? 1));
      }
    }
    return out;
  }

  // The words of the index with key `key`, whole.
  private wordsOf(key: string): number[] {
    const { keys, keyWord } = this.sounds();
    const out: number[] = [];
    for (let k = lowerBound(keys, key); k < keys.length && keys[k] === key; k++) out.push(keyWord[k]);
    return out;
  }

  // Scores the documents that have a word of each part (`ids[j]`: part j's words), as matches
  // of the query's words `bit`, at `weight`, while `max` postings allow. Returns the postings read.
  private together(c: Scratch, parts: { ids: number[][]; weight: number }, bit: number, max: number): number {
    const { start, doc } = this;
    let read = 0;
    // how many parts, in order, each document has: those with all of them match
    const count = new Map<number, number>();
    parts.ids.forEach((ids, j) => {
      for (const id of ids) {
        for (let k = start[id]; k < start[id + 1] && read < max; k++, read++) {
          const d = doc[k];
          if ((count.get(d) ?? 0) === j) count.set(d, j + 1);
        }
      }
    });
    const n = parts.ids.length;
    const only = new Set<number>();
    for (const [d, m] of count) if (m === n) only.add(d);
    if (!only.size) return read;
    for (const ids of parts.ids) for (const id of ids) this.add(c, id, parts.weight / n, bit, Infinity, true, only);
    return read;
  }

  // The index of words by phonetic key, built on the first query that needs it (from `sorted`,
  // like the typos' order): the keys of every word in order, each key's word, and each word's
  // position in `sorted`.
  private sounds(): Sounds {
    if (!this.byKey) run(this.makeSounds());
    return this.byKey!;
  }

  // sounds() in steps of PREPARE_WORDS words: each run of keys sorted in its step, then merged a
  // pair of runs a step (the order of one sort of all pairs, which are distinct: key, then word)
  private *makeSounds(): Generator<string, void> {
    const { sorted, sortedId } = this;
    let runs: [string, number][][] = [];
    const spoken: string[] = new Array(sorted.length);
    const wordKeys: string[][] = new Array(sorted.length);
    for (let k0 = 0; k0 < sorted.length; k0 += PREPARE_WORDS) {
      const run: [string, number][] = [];
      for (let k = k0; k < Math.min(k0 + PREPARE_WORDS, sorted.length); k++) {
        const keys = matchKeys(sorted[k]);
        for (const key of keys) run.push([key, sortedId[k]]);
        wordKeys[sortedId[k]] = keys;
        spoken[sortedId[k]] = vowelKey(sorted[k]);
      }
      runs.push(run.sort(byKeyThenValue));
      yield 'phonetic keys';
    }
    const pairs = yield* mergeRuns(runs, PREPARE_WORDS * 16, 'phonetic keys merged');
    runs = [];
    const pos = new Uint32Array(sorted.length);
    for (let k = 0; k < sorted.length; k++) pos[sortedId[k]] = k;
    this.byKey = { keys: pairs.map((p) => p[0]), keyWord: Uint32Array.from(pairs, (p) => p[1]), pos, spoken, wordKeys };
  }

  /**
   * A word's `phoneticKey`, taken from the keys made with the index when it holds the word (a
   * search's listing compares the names of the rows it lists by sound: see `search/same.ts`).
   */
  phonetic(word: string): string {
    const k = lowerBound(this.sorted, word);
    if (k >= this.sorted.length || this.sorted[k] !== word) return phoneticKey(word);
    const first = this.sounds().wordKeys[this.sortedId[k]][0];
    // a word with no phonetic key has only a meaning, a number or letters (`=…`, `@…`)
    return first === undefined || sure(first) ? '' : first;
  }

  /**
   * Builds now what the first queries would build (the per-query scratch, the words
   * ordered backwards for typos, the phonetic keys): a server calls it at start, so that
   * no request pays for it.
   */
  prepare(): void {
    run(this.preparing());
  }

  /**
   * `prepare()` in steps, for a server that warms a new index while it answers requests: each
   * `next()` builds a part (the scratch, some thousands of words of the typos' order or of the keys) and
   * yields what. The index answers the same whether it was prepared, in steps or at once.
   */
  *preparing(): Generator<string, void> {
    if (!this.free.length) this.free.push(new Scratch(this.names));
    yield 'scratch';
    if (!this.dict) yield* this.makeTypos();
    if (!this.byKey) yield* this.makeSounds();
  }

  private typos(): Typos {
    if (!this.dict) run(this.makeTypos());
    return this.dict!;
  }

  private *makeTypos(): Generator<string, void> {
    this.dict = yield* Typos.build(this.sorted, PREPARE_WORDS);
  }

  // Adds word `id`'s documents (the first `max` of them), at `weight`, as matches of the
  // query's words `bit` (bit i: word i). Returns how many it added.
  private add(c: Scratch, id: number, weight: number, bit: number, max: number, bySound = false, only?: Set<number>): number {
    const { start, doc, tf, docLen, docOld } = this;
    const { score, mask, spelled, seen, epoch } = c;
    const df = start[id + 1] - start[id];
    const idf = Math.log(1 + (this.names - df + 0.5) / (df + 0.5));
    const norm = K * (1 - B);
    const perLen = (K * B) / this.avgLen;
    const end = Math.min(start[id + 1], start[id] + max);
    for (let k = start[id]; k < end; k++) {
      const d = doc[k];
      if (only && !only.has(d)) continue;
      if (seen[d] !== epoch) {
        seen[d] = epoch;
        score[d] = 0;
        mask[d] = 0;
        spelled[d] = 0;
        c.docs[c.touched++] = d;
      }
      const f = tf[k];
      const s = weight * idf * (D + (f * (K + 1)) / (f + norm + perLen * docLen[d]));
      score[d] += docOld[d] === OLD ? s * OLD_BOOST : s;
      mask[d] |= bit;
      if (!bySound) spelled[d] |= bit;
    }
    return end - start[id];
  }
}

/** The index of words by key: the keys of every word in order, each key's word, each word's position in `sorted`, and each word's `vowelKey` and keys (by id). */
interface Sounds {
  keys: string[];
  keyWord: Uint32Array;
  pos: Uint32Array;
  spoken: string[];
  /** Each word's `matchKeys`, by id: a query's word the index has needs them computed no more. */
  wordKeys: string[][];
}

// Whether two vowel keys are one letter apart at most (Kathmandu काठमाडौं, not Tom ठमेल): the
// same spelling, vowels and all, in either script. Keys of two letters or less must be equal.
function close(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 3 || b.length < 3 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  let j = 0;
  while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
  // one letter changed, added or dropped between the common start and end
  return Math.max(a.length, b.length) - i - j <= 1;
}

/** A query word's matches by sound: words of the index and their weights, and the query's words they match (bit i: word i). */
interface SoundPlan {
  ids: number[];
  weights: number[];
  bits: number;
}

// A word with a letter (not a number), which may be joined to the next
const LETTER = /\p{L}/u;

// A meaning (`=मन्दिर`) or letters spelled out (`@sbi`): a key that matches by no chance.
const sure = (key: string) => key.startsWith('=') || key.startsWith('@');

/**
 * The runs of two or more query words in a row that are each a letter (`r`, `s`) or a letter
 * spelled out in Devanagari (`आर`, `एस`): an abbreviation written letter by letter.
 */
function letterRuns(terms: string[]): { letters: string; bits: number }[] {
  const out: { letters: string; bits: number }[] = [];
  let letters = '',
    bits = 0,
    n = 0;
  const end = () => {
    if (n >= 2) out.push({ letters, bits });
    letters = '';
    bits = 0;
    n = 0;
  };
  terms.forEach((t, i) => {
    const l = /^[a-z]$/.test(t) ? t : spelledLetters(t);
    if (l === undefined || l.length !== 1) return end();
    letters += l;
    bits |= 1 << i;
    n++;
  });
  end();
  return out;
}

/** Words per step of `Words.preparing()`: about a millisecond of phonetic keys. */
const PREPARE_WORDS = 256;

// Takes steps to their end, at once.
function run(steps: Iterator<unknown>): void {
  while (!steps.next().done);
}

/** One query's scratch, by document; `seen` and `headSeen` hold the query (epoch) that last touched it. */
class Scratch {
  readonly score: Float64Array;
  /** The query's words a document matched (bit i: word i), and those by their letters. */
  readonly mask: Uint16Array;
  readonly spelled: Uint16Array;
  readonly seen: Uint32Array;
  readonly headSeen: Uint32Array;
  readonly headAt: Int32Array;
  /** The documents the query has touched, in order: the first `touched` (each once, by `seen`). */
  readonly docs: Uint32Array;
  touched = 0;
  epoch = 0;
  constructor(n: number) {
    this.docs = new Uint32Array(n);
    this.score = new Float64Array(n);
    this.mask = new Uint16Array(n);
    this.spelled = new Uint16Array(n);
    this.seen = new Uint32Array(n);
    this.headSeen = new Uint32Array(n);
    this.headAt = new Int32Array(n);
  }
}

/**
 * Puts each tier's scores in an interval of its own, the same whatever else matched (a filter
 * or a radius does not change a row's score): a match of every word in (2, 3), by letters of
 * some words in (0, 1); within a tier the order is BM25+'s.
 * The ranking by score then lists the tiers in order, and a caller reads one relevance.
 */
function stack(scores: number[], tiers: number[]): void {
  for (let i = 0; i < scores.length; i++) scores[i] = [2, 1, 0][tiers[i]] + scores[i] / (1 + scores[i]);
}

// The number of bits set in a query's word mask (MAX_WORDS of them at most).
function bits(m: number): number {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
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
  /** NAME or OLD: whether a document is an `old_name`. */
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
