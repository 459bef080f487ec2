/**
 * Devanagari and Latin letters for Nepali names: a reading of Devanagari in Latin letters as
 * Nepalis write their names informally (`काठमाडौं` → `Kathmadaun`, `दरबार मार्ग` → `Darbar Marg`),
 * a reading of Latin letters in Devanagari (`Thamel` → `थमेल`), and a phonetic key that both
 * scripts fold to, so that a name written in one is found by a query typed in the other
 * (`kathmandu`, `Kaathmaadau` and `काठमाडौं` all have the key `ktmd`).
 *
 * Written here: the transliteration packages on npm implement scholarly schemes (IAST, ISO
 * 15919, ITRANS) with every long vowel and inherent `a` kept (`kāṭhamāḍauṃ`), which no Nepali
 * types; the informal spelling needs Nepali's deletion of the inherent vowel and its
 * conventions (`व` as b or w, `ज्ञ` as gy), and the key needs both directions to agree.
 */

/** The scripts a name can be written in, as far as these readings care. */
export type Script = 'deva' | 'latin' | 'other';

const DEVA = /[\u0900-\u097f]/;
const LATIN = /[A-Za-z\u00c0-\u024f]/;

/** The script of `s`: Devanagari if it has any Devanagari letter, else Latin if it has a Latin letter. */
export function scriptOf(s: string): Script {
  if (DEVA.test(s)) return 'deva';
  if (LATIN.test(s)) return 'latin';
  return 'other';
}

// --- Devanagari → Latin ---------------------------------------------------------------------

// Consonants, without their inherent vowel. व is b at the start of a word, w elsewhere (below).
const CONSONANTS: Record<string, string> = {
  क: 'k',
  ख: 'kh',
  ग: 'g',
  घ: 'gh',
  ङ: 'ng',
  च: 'ch',
  छ: 'chh',
  ज: 'j',
  झ: 'jh',
  ञ: 'ny',
  ट: 't',
  ठ: 'th',
  ड: 'd',
  ढ: 'dh',
  ण: 'n',
  त: 't',
  थ: 'th',
  द: 'd',
  ध: 'dh',
  न: 'n',
  प: 'p',
  फ: 'ph',
  ब: 'b',
  भ: 'bh',
  म: 'm',
  य: 'y',
  र: 'r',
  ल: 'l',
  व: 'w',
  श: 'sh',
  ष: 'sh',
  स: 's',
  ह: 'h',
  ळ: 'l',
  ऴ: 'l',
  ऩ: 'n',
  ऱ: 'r',
  // with nukta, precomposed
  क़: 'q',
  ख़: 'kh',
  ग़: 'g',
  ज़: 'z',
  ड़: 'r',
  ढ़: 'rh',
  फ़: 'f',
  य़: 'y',
};
const NUKTA_OF: Record<string, string> = { क: 'q', ख: 'kh', ग: 'g', ज: 'z', ड: 'r', ढ: 'rh', फ: 'f', य: 'y' };

const VOWELS: Record<string, string> = {
  अ: 'a',
  आ: 'a',
  इ: 'i',
  ई: 'i',
  उ: 'u',
  ऊ: 'u',
  ऋ: 'ri',
  ॠ: 'ri',
  ऌ: 'li',
  ए: 'e',
  ऐ: 'ai',
  ओ: 'o',
  औ: 'au',
  ऑ: 'o',
  ऍ: 'e',
  ऎ: 'e',
  ऒ: 'o',
};
const SIGNS: Record<string, string> = {
  'ा': 'a',
  'ि': 'i',
  'ी': 'i',
  'ु': 'u',
  'ू': 'u',
  'ृ': 'ri',
  'ॄ': 'ri',
  'े': 'e',
  'ै': 'ai',
  'ो': 'o',
  'ौ': 'au',
  'ॉ': 'o',
  'ॅ': 'e',
  'ॆ': 'e',
  'ॊ': 'o',
};
const VIRAMA = '\u094d',
  NUKTA = '\u093c',
  ANUSVARA = '\u0902',
  CANDRABINDU = '\u0901',
  VISARGA = '\u0903';
const LABIALS = new Set(['प', 'फ', 'ब', 'भ', 'म']);
const DIGITS = '०१२३४५६७८९';

/** One syllable-ish unit of a Devanagari word: a consonant with its vowel, or a vowel. */
interface Unit {
  consonant?: string; // its Latin letters
  /** The written vowel; undefined: the inherent a, '' after a virama. */
  vowel?: string;
  /** Nasal letters after the vowel (anusvara, candrabindu) or a visarga. */
  tail: string;
  /** The Devanagari consonant, for the anusvara's m before labials. */
  letter?: string;
}

/** Splits a run of Devanagari into units. */
function units(word: string): Unit[] {
  const out: Unit[] = [];
  const chars = [...word.normalize('NFC')];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const last = out[out.length - 1];
    if (c in CONSONANTS) {
      let latin = CONSONANTS[c];
      if (chars[i + 1] === NUKTA) {
        latin = NUKTA_OF[c] ?? latin;
        i++;
      }
      // ज्ञ is said gy in Nepali
      if (c === 'ञ' && last?.letter === 'ज' && last.vowel === '') {
        last.consonant = 'g';
        latin = 'y';
      }
      out.push({ consonant: latin, tail: '', letter: c });
    } else if (c in VOWELS) {
      out.push({ vowel: VOWELS[c], tail: '' });
    } else if (c in SIGNS && last?.consonant !== undefined && last.vowel === undefined) {
      last.vowel = SIGNS[c];
    } else if (c === VIRAMA && last?.consonant !== undefined && last.vowel === undefined) {
      last.vowel = '';
    } else if ((c === ANUSVARA || c === CANDRABINDU || c === VISARGA) && last) {
      const next = chars[i + 1];
      last.tail += c === VISARGA ? 'h' : c === ANUSVARA && next !== undefined && LABIALS.has(next) ? 'm' : 'n';
    }
    // anything else (zero-width joiners, stray signs) writes nothing
  }
  return out;
}

/** Whether unit `u` sounds a vowel (its own, or the inherent a that is kept). */
const voiced = (u: Unit | undefined, kept: boolean[], k: number): boolean =>
  u !== undefined && (u.consonant === undefined || (u.vowel === undefined ? kept[k] : u.vowel !== ''));

/**
 * A Devanagari word in Latin letters as Nepalis write names informally: long and short vowels
 * alike, the inherent `a` dropped where Nepali drops it (at the end of a word after a single
 * consonant or an r cluster; between an a sound and a consonant followed by a vowel, one
 * syllable at a time),
 * anusvara and candrabindu as `n` (`m` before p, ph, b, bh, m), `व` as `b` at the start of a
 * word and `w` elsewhere. Lower case.
 */
function wordToLatin(word: string): string {
  const u = units(word);
  // kept[k]: whether unit k's inherent a (if it has one) is said
  const kept = u.map((x) => x.consonant !== undefined && x.vowel === undefined);
  const n = u.length;
  // the end: a single consonant loses its a, unless it is the only sound (र) or ends a
  // cluster (इन्द्र); after r the cluster loses it too (मार्ग Marg)
  const cluster = n > 1 && u[n - 2].vowel === '';
  if (n > 1 && kept[n - 1] && (!cluster || u[n - 2].letter === 'र')) kept[n - 1] = false;
  for (let k = 1; k + 1 < n; k++) {
    if (!kept[k]) continue;
    // a C(a) C V: the a goes after an a sound (दरबार Darbar, रामचन्द्र Ramchandra), not after
    // another vowel (बेकरी Bekari, डिल्लीबजार Dillibajar), nor right after one that went
    const before = u[k - 1];
    const afterA = before.vowel === 'a' || (before.vowel === undefined && kept[k - 1]);
    if (afterA && u[k + 1].consonant !== undefined && voiced(u[k + 1], kept, k + 1)) kept[k] = false;
  }
  let out = '';
  u.forEach((x, k) => {
    if (x.consonant !== undefined) out += x.letter === 'व' && k === 0 ? 'b' : x.consonant;
    out += x.vowel ?? (kept[k] ? 'a' : '');
    out += x.tail;
  });
  return out;
}

/**
 * `s` with its Devanagari in Latin letters (see the module's comment), each word capitalised;
 * Latin letters, digits and punctuation kept (Devanagari digits become 0–9, a danda a full stop).
 *
 * @example
 * toLatin('दरबार मार्ग'); // => 'Darbar Marg'
 */
export function toLatin(s: string): string {
  return s.replace(/[\u0900-\u097f\u200c\u200d]+/g, (run) => {
    let out = '';
    for (const part of run.split(/([०-९।॥]+)/)) {
      if (/^[०-९।॥]+$/.test(part)) out += [...part].map((c) => (DIGITS.includes(c) ? String(DIGITS.indexOf(c)) : '.')).join('');
      else if (part) {
        const w = wordToLatin(part);
        out += w.charAt(0).toUpperCase() + w.slice(1);
      }
    }
    return out;
  });
}

// --- Latin → Devanagari ---------------------------------------------------------------------

// Consonant spellings of romanized Nepali, longest first. t and d are the retroflex ट and ड, as
// Nepali writes English words (होटल, रेस्टुरेन्ट); th and dh the dental थ and ध of Nepali names.
const LATIN_CONSONANTS: [string, string][] = [
  ['ksh', 'क्ष'],
  ['chh', 'छ'],
  ['gy', 'ज्ञ'],
  ['kh', 'ख'],
  ['gh', 'घ'],
  ['ch', 'च'],
  ['jh', 'झ'],
  ['th', 'थ'],
  ['dh', 'ध'],
  ['ph', 'फ'],
  ['bh', 'भ'],
  ['sh', 'श'],
  ['ng', 'ङ'],
  ['ck', 'क'],
  ['k', 'क'],
  ['g', 'ग'],
  ['c', 'क'],
  ['j', 'ज'],
  ['t', 'ट'],
  ['d', 'ड'],
  ['n', 'न'],
  ['p', 'प'],
  ['b', 'ब'],
  ['m', 'म'],
  ['y', 'य'],
  ['r', 'र'],
  ['l', 'ल'],
  ['w', 'व'],
  ['v', 'भ'],
  ['s', 'स'],
  ['h', 'ह'],
  ['f', 'फ'],
  ['z', 'ज'],
  ['q', 'क'],
  ['x', 'क्स'],
];
// Vowel spellings, longest first: [independent letter, sign after a consonant].
const LATIN_VOWELS: [string, string, string][] = [
  ['aa', 'आ', 'ा'],
  ['oa', 'ओ', 'ो'],
  ['ea', 'ई', 'ी'],
  ['ai', 'ऐ', 'ै'],
  ['au', 'औ', 'ौ'],
  ['ee', 'ई', 'ी'],
  ['oo', 'ऊ', 'ू'],
  ['ou', 'औ', 'ौ'],
  ['a', 'अ', ''],
  ['i', 'इ', 'ि'],
  ['u', 'उ', 'ु'],
  ['e', 'ए', 'े'],
  ['o', 'ओ', 'ो'],
];

// English words common in the names of places, as Nepali writes them (each the spelling the
// fixture's own `name:ne` has at the same place of the name most often): the letters alone
// would read them as Nepali (Cafe कफे, Bank बंक, House हौसे).
const ENGLISH: ReadonlyMap<string, string> = new Map([
  ['and', 'एण्ड'],
  ['academy', 'एकेडेमी'],
  ['bakery', 'बेकरी'],
  ['bank', 'बैंक'],
  ['bar', 'बार'],
  ['cafe', 'क्याफे'],
  ['center', 'सेन्टर'],
  ['centre', 'सेन्टर'],
  ['city', 'सिटी'],
  ['clinic', 'क्लिनिक'],
  ['coffee', 'कफी'],
  ['college', 'कलेज'],
  ['finance', 'फाइनान्स'],
  ['guest', 'गेस्ट'],
  ['hotel', 'होटल'],
  ['house', 'हाउस'],
  ['kitchen', 'किचन'],
  ['limited', 'लिमिटेड'],
  ['medical', 'मेडिकल'],
  ['momo', 'मोमो'],
  ['money', 'मनी'],
  ['park', 'पार्क'],
  ['pharmacy', 'फार्मेसी'],
  ['restaurant', 'रेस्टुरेन्ट'],
  ['school', 'स्कूल'],
  ['transfer', 'ट्रान्सफर'],
]);

// The consonants before which an n is written as an anusvara, as Nepali writes them (बैंक,
// गंगा, संगीत): k, g, q and a c that is not ch. Before any other consonant an n or m is a half
// letter (सम्झना, कन्या, रेस्टुरेन्ट, ट्रान्सफर, पम्परनिकेल), and never an anusvara before r (Amrit).
const VELAR = /^(?:[kgq]|c(?!h))/;
// Letters English doubles at the end of a word that Nepali writes once (Bell बेल, Mall, Kiss,
// Staff, Jazz); a doubled t is Nepali's own (Bhatt भट्ट).
const DOUBLED_END = /([lsfz])\1$/;

// Names of the Kathmandu valley and Nepal whose usual romanization drops what the letters
// cannot say (the retroflex ठ ड, the long vowels, the nasal of काठमाडौं): written as Nepali
// writes them, not letter by letter (Kathmandu would read कथ्मंडु, Thamel थमेल).
const PLACES: ReadonlyMap<string, string> = new Map([
  ['kathmandu', 'काठमाडौं'],
  ['lalitpur', 'ललितपुर'],
  ['patan', 'पाटन'],
  ['bhaktapur', 'भक्तपुर'],
  ['kirtipur', 'कीर्तिपुर'],
  ['pokhara', 'पोखरा'],
  ['nepal', 'नेपाल'],
  ['bagmati', 'बागमती'],
  ['thamel', 'ठमेल'],
  ['durbar', 'दरबार'],
  ['tole', 'टोल'],
  ['tol', 'टोल'],
  ['asan', 'असन'],
  ['indrachowk', 'इन्द्रचोक'],
  ['basantapur', 'बसन्तपुर'],
  ['ratnapark', 'रत्नपार्क'],
  ['putalisadak', 'पुतलीसडक'],
  ['kamaladi', 'कमलादी'],
  ['kamalpokhari', 'कमलपोखरी'],
  ['dillibazar', 'डिल्लीबजार'],
  ['baneshwor', 'बानेश्वर'],
  ['naxal', 'नक्साल'],
  ['lazimpat', 'लाजिम्पाट'],
  ['maharajgunj', 'महाराजगञ्ज'],
  ['chabahil', 'चाबहिल'],
  ['boudha', 'बौद्ध'],
  ['boudhanath', 'बौद्धनाथ'],
  ['swayambhu', 'स्वयम्भू'],
  ['pashupati', 'पशुपति'],
  ['tripureshwor', 'त्रिपुरेश्वर'],
  ['thapathali', 'थापाथली'],
  ['kalimati', 'कालीमाटी'],
  ['kalanki', 'कलंकी'],
  ['koteshwor', 'कोटेश्वर'],
  ['sundhara', 'सुन्धारा'],
  ['jamal', 'जमल'],
  ['balaju', 'बालाजु'],
  ['jawalakhel', 'जावलाखेल'],
  ['pulchowk', 'पुल्चोक'],
  ['kupondole', 'कुपण्डोल'],
  ['sanepa', 'सानेपा'],
  ['jhamsikhel', 'झम्सिखेल'],
]);

/** A Latin word in Devanagari, letter group by letter group (see `toDevanagari`). */
function wordToDevanagari(word: string): string {
  const known = ENGLISH.get(word.toLowerCase()) ?? PLACES.get(word.toLowerCase());
  if (known !== undefined) return known;
  const w = word
    .toLowerCase()
    .replace(DOUBLED_END, '$1')
    // a c before e, i or y is English's s (Pharmacy, Cinema); a y ending a word after a
    // consonant its long i (Gallery, Factory)
    .replace(/c(?=[eiy])/g, 's')
    .replace(/(?<=[b-df-hj-np-tv-xz])y$/, 'ee');
  let out = '';
  let afterConsonant = false;
  let i = 0;
  while (i < w.length) {
    const v = LATIN_VOWELS.find(([l]) => w.startsWith(l, i));
    if (v) {
      const end = i + v[0].length === w.length;
      // a word's last a is आ's sign (Sita सीता); an inner one the inherent vowel
      if (afterConsonant) out += v[0] === 'a' && end && i > 0 ? 'ा' : v[2];
      else out += v[1];
      afterConsonant = false;
      i += v[0].length;
      continue;
    }
    // n after a vowel and before k or g is the nasal of the cluster: an anusvara (Ganga गंगा)
    if (w[i] === 'n' && !afterConsonant && out !== '' && VELAR.test(w.slice(i + 1))) {
      out += 'ं';
      i += 1;
      continue;
    }
    const c = LATIN_CONSONANTS.find(([l]) => w.startsWith(l, i));
    if (c) {
      if (afterConsonant) out += VIRAMA;
      out += c[1];
      afterConsonant = true;
      i += c[0].length;
      continue;
    }
    out += w[i]; // not a letter we read: kept
    afterConsonant = false;
    i++;
  }
  return out;
}

/**
 * `s` with its Latin words in Devanagari, read as romanized Nepali: `aa`, `ee`, `oo` long
 * vowels, `th`/`dh` dental, `t`/`d` retroflex (as Nepali writes English words), a word's last
 * `a` long, `n` before k or g an anusvara, a consonant before a consonant (an n or m too)
 * joined with a virama; English spellings: a final `ll`, `ss`, `ff`, `zz` once, `c` before e,
 * i or y as s, a final `y` after a consonant as ी, and common English words of names as Nepali
 * spells them (Cafe क्याफे, Restaurant रेस्टुरेन्ट, Bank बैंक, And एण्ड). An approximation for
 * names that have no Devanagari spelling: records mark it.
 *
 * @example
 * toDevanagari('Thamel'); // => 'थमेल'
 */
export function toDevanagari(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[A-Za-z]+/g, wordToDevanagari);
}

// --- the phonetic key -----------------------------------------------------------------------

// The spellings folded, each to one letter or two, in one pass: the alternatives are tried
// left to right at each place, longest first. English spellings as Nepali writes the words
// (Station स्टेशन, Culture कल्चर, Terrace टेरेस, School स्कूल, Kitchen किचन, Queen क्वीन, Night नाइट,
// Chowk चोक)
// only for Latin input, as Devanagari read in Latin letters can spell them too (रेस्टुरेन्ट).
// C stands for the ch sound while c alone becomes k.
const SPELLINGS: Record<string, string> = {
  ksh: 'ks',
  xh: 'ks',
  x: 'ks',
  chh: 'C',
  ch: 'C',
  ck: 'k',
  c: 'k',
  q: 'k',
  sh: 's',
  jny: 'gy',
  gny: 'gy',
  ph: 'p',
  f: 'p',
  v: 'b',
  w: 'b',
  z: 'j',
  tion: 'sn',
  ture: 'Cr',
  ce: 'se',
  ci: 'si',
  cy: 'sy',
  tch: 'C',
  sch: 'sk',
  qu: 'kb',
  ght: 't',
  ow: 'o',
};
const FOLD_LATIN = /tion|ture|tch|sch|ght|c[eiy]|ksh|xh|x|chh|ch|ck|c|qu|q|sh|jny|gny|ph|f|v|ow(?![aeiouy])|w|z/g;
const FOLD_DEVA = /ksh|xh|x|chh|ch|ck|c|q|sh|jny|gny|ph|f|v|w|z/g;
const folded = (m: string): string => SPELLINGS[m];
// then the h of an aspirate (kh, gh, jh, th, dh, bh, rh, Ch)
const ASPIRATE = /([bdgjkprtC])h+/g;
const ASCII = /^[\x00-\x7f]*$/;

/**
 * A word's phonetic key: what survives the spellings Nepalis vary between, so that the same
 * name typed in either script or spelled differently has one key. Devanagari is first read in
 * Latin letters; then, in Latin: `ksh`/`x` → ks, `ch`/`chh`/`tch` → c, `c`/`q`/`ck` → k, `qu` → kw, `sh` → s,
 * `sch` → sk, `ght` → t, `ow` but before a vowel → o (Chowk चोक), `ph`/`f` → p, `v`/`w` → b, `z` → j, `tion` → sn, `ture` → chr, a last `ew` → u and
 * a last `que` → k, `c` before e, i or y → s (English words as Nepali spells them), the `h` of an aspirate dropped, then
 * every `h` but a first letter (Brahma and Bramha, सोह्र and Sorha), `ri` → r, a letter written
 * twice once, a `y` starting a word before a vowel dropped (United and युनाइटेड), a vowel at the
 * start kept as `a`, every other vowel and `y` dropped (the inherent `a`, long vowels and the
 * glide of `क्या` are spelled every way), then an `n` or `m` past the first letter before a stop of its own place dropped
 * (`nd`, `nk`, `mb`: the anusvara is written every way, and the inherent a between: कनतल्ला
 * Kantalla). `''` for a word with no letters.
 *
 * @example
 * phoneticKey('Kathmandu') === phoneticKey('काठमाडौं'); // 'ktmd'
 */
export function phoneticKey(word: string): string {
  return keyOf(word, false);
}

// phoneticKey, reading a Devanagari word's anusvara and candrabindu as n when `tails`.
function keyOf(word: string, tails: boolean): string {
  const deva = DEVA.test(word);
  let s = deva ? rawLatin(word, tails) : ASCII.test(word) ? word : word.normalize('NFD');
  // an h written twice is one (its folds below would otherwise leave the second)
  s = s
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/hh+/g, 'h');
  if (!s) return '';
  if (!deva && s.endsWith('ew')) s = `${s.slice(0, -2)}u`;
  if (!deva && s.endsWith('que')) s = `${s.slice(0, -3)}k`;
  s = s.replace(deva ? FOLD_DEVA : FOLD_LATIN, folded).replace(ASPIRATE, '$1');
  // an h past the first letter is said faintly, or moved, or left out (Mahabir, Bramha, Sorhahatte)
  s = s.charAt(0) + s.slice(1).replace(/h/g, '');
  s = s.replace(/ri/g, 'r');
  // a letter written twice is said once (Makkhan मखन, Dillibazar); before the vowels go, so
  // that the two m of Momo stay two
  s = s.replace(/(.)\1+/g, '$1');
  // a y before a vowel at the start is the glide English leaves unwritten (Union युनियन)
  if (/^y[aeiou]/.test(s)) s = s.slice(1);
  const first = /^[aeiou]/.test(s) ? 'a' : '';
  // y is a vowel's glide past the first letter (क्याफे for café, Maya, Himalaya)
  s = s.charAt(0) + s.slice(1).replace(/[aeiouy]/g, '');
  if (first) s = s.slice(1);
  // a nasal before a stop of its own place (Kathmandu's n, रामचन्द्र's न्, शम्भु's म्): written as
  // anusvara, as a half letter, or not at all, with an inherent a between or not; other nasals
  // are letters of their own
  const nasals = /n(?=[tdCjkg])|m(?=[pb])/g;
  s = first ? s.replace(nasals, '') : s.charAt(0) + s.slice(1).replace(nasals, '');
  return first + s.toLowerCase();
}

// Devanagari in Latin letters with every inherent a kept: the key drops vowels anyway, and
// keeping them keeps the deletion rules out of the key. No tails, unless `tails`: a nasalised
// vowel (काठमाडौं, दशैं) is written with an n, or without, or before the consonant.
function rawLatin(word: string, tails = false): string {
  let out = '';
  for (const run of word.split(/[^\u0900-\u097f]+/)) {
    for (const x of units(run)) {
      // ङ and ञ joined to the next letter are its nasal, an n (हङ्कुक Hankook, रञ्जना Ranjana)
      const nasal = x.vowel === '' && (x.letter === 'ङ' || (x.letter === 'ञ' && x.consonant === 'ny'));
      out += (nasal ? 'n' : (x.consonant ?? '')) + (x.vowel ?? (x.consonant !== undefined ? 'a' : ''));
      if (tails) out += x.tail.replace(/m/g, 'n');
    }
    out += ' ';
  }
  return out;
}

// The Latin letters as Nepali spells them out in an abbreviation (SBI एसबीआई, ATM एटीएम), with
// long vowels written short, as `spelledLetters` reads them.
const LETTER_NAMES: [string, string][] = (
  [
    ['a', 'ए'],
    ['b', 'बी'],
    ['c', 'सी'],
    ['d', 'डी'],
    ['e', 'ई'],
    ['f', 'एफ'],
    ['g', 'जी'],
    ['h', 'एच'],
    ['i', 'आई'],
    ['i', 'आइ'],
    ['j', 'जे'],
    ['k', 'के'],
    ['l', 'एल'],
    ['m', 'एम'],
    ['n', 'एन'],
    ['o', 'ओ'],
    ['p', 'पी'],
    ['q', 'क्यू'],
    ['r', 'आर'],
    ['s', 'एस'],
    ['t', 'टी'],
    ['u', 'यू'],
    ['v', 'भी'],
    ['w', 'डब्लु'],
    ['w', 'डब्ल्यु'],
    ['x', 'एक्स'],
    ['y', 'वाई'],
    ['z', 'जेड'],
  ] as [string, string][]
).map(([l, d]) => [l, short(d)]);

// Devanagari with its long vowels short: letter names are spelled both ways (बी, बि).
function short(s: string): string {
  return s.replace(/ी/g, 'ि').replace(/ू/g, 'ु').replace(/ई/g, 'इ').replace(/ऊ/g, 'उ');
}

/**
 * The Latin letters a Devanagari word spells out one by one (`एसबीआई` → `sbi`, `आर` → `r`),
 * or undefined when it is not a run of letter names.
 */
export function spelledLetters(word: string): string | undefined {
  const w = short(word.normalize('NFC'));
  let out = '';
  for (let i = 0; i < w.length;) {
    // the longest name that starts here (एस before ए)
    let best: [string, string] | undefined;
    for (const e of LETTER_NAMES) if (w.startsWith(e[1], i) && (!best || e[1].length > best[1].length)) best = e;
    if (!best) return undefined;
    out += best[0];
    i += best[1].length;
  }
  return out || undefined;
}

// Nepali's endings a name's word may carry that its English name does not (नेपालको Nepal's,
// वर्गहरू classes): of, 's, the plural, in.
const ENDINGS = /(को|का|की|हरू|हरु|मा)$/;

/**
 * A word's phonetic keys: its `phoneticKey` first, then the keys of its other readings, each
 * once. A Latin word is also read as English (a g before e, i or y as j: College कलेज; an s
 * between vowels as z, which Nepali writes ज: Sunrise सनराइज; a d between a vowel and u as j:
 * Education एजुकेशन), and with a ch as k if it has one (Echo इको, Technology टेक्नोलोजी); a
 * Devanagari word with an anusvara or candrabindu also with an n there (दशैं Dashain), and one
 * ending in को, का, की, हरू or मा also without it (नेपालको Nepal). `[]` for a word with no letters.
 *
 * @example
 * phoneticKeys('sunrise'); // ['snrs', 'snrj']
 */
export function phoneticKeys(word: string): string[] {
  const out: string[] = [];
  const add = (k: string) => {
    if (k && !out.includes(k)) out.push(k);
  };
  add(phoneticKey(word));
  if (DEVA.test(word)) {
    if (/[ंँ]/.test(word)) add(keyOf(word, true));
    const s = stem(word);
    if (s !== word) add(phoneticKey(s));
    return out;
  }
  const s = (ASCII.test(word) ? word : word.normalize('NFD')).toLowerCase().replace(/[^a-z]/g, '');
  if (!s) return out;
  const soft = s
    .replace(/g(?=[eiy])/g, 'j')
    .replace(/(?<=[aeiou])s(?=[aeiouy])/g, 'j')
    .replace(/(?<=[aeiou])du/g, 'ju');
  if (soft !== s) add(phoneticKey(soft));
  if (s.includes('ch') && /(?<!t)ch/.test(s)) add(phoneticKey(soft.replace(/(?<!t)ch/g, 'k')));
  return out;
}

/** A Devanagari word without one of Nepali's endings (`ENDINGS`), when two letters or more are left. */
export function stem(word: string): string {
  const s = word.replace(ENDINGS, '');
  return s !== word && [...s].length >= 2 ? s : word;
}

/**
 * A word's key with its vowels (`phoneticKey` keeps only its consonants): its spelling read the
 * same way, a Devanagari word as `toLatin` reads it, then each run of vowels its first (`ai`,
 * `aa` → a; `ee`, `ea` → e) and y but at the start dropped. A sound match whose vowels agree too
 * is surer than its short key alone says (बैंक and Bank `bak`, not बुक `buk`).
 *
 * @example
 * vowelKey('Nepal') === vowelKey('नेपाल'); // 'nepal'
 */
export function vowelKey(word: string): string {
  const deva = DEVA.test(word);
  let s = deva ? toLatin(word) : ASCII.test(word) ? word : word.normalize('NFD');
  s = s
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/hh+/g, 'h');
  if (!s) return '';
  if (!deva && s.endsWith('ew')) s = `${s.slice(0, -2)}u`;
  if (!deva && s.endsWith('que')) s = `${s.slice(0, -3)}k`;
  s = s.replace(deva ? FOLD_DEVA : FOLD_LATIN, folded).replace(ASPIRATE, '$1');
  s = s.charAt(0) + s.slice(1).replace(/h/g, '');
  s = s.replace(/ri/g, 'r').replace(/(.)\1+/g, '$1');
  s = s.charAt(0) + s.slice(1).replace(/y/g, '');
  s = s.replace(/([aeiou])[aeiou]+/g, '$1');
  return (
    s.charAt(0) +
    s
      .slice(1)
      .replace(/n(?=[tdCjkg])|m(?=[pb])/g, '')
      .toLowerCase()
  );
}
