/**
 * Devanagari ⇄ Latin readings of Nepali names and the phonetic key both scripts fold to:
 * hand-worked spellings (as Nepalis write these names, signs and streets) and the fixture's
 * names that carry both scripts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { phoneticKey, phoneticKeys, scriptOf, spelledLetters, toDevanagari, toLatin, vowelKey } from '../src/lang/translit.js';
import { matchKeys } from '../src/lang/glossary.js';
import { readRaw, tag } from './support/raw.js';

describe('toLatin: Devanagari as Nepalis write names in Latin letters', () => {
  it.each([
    ['ठमेल', 'Thamel'],
    ['असन', 'Asan'],
    ['नारायण', 'Narayan'], // the last a is not said
    ['दरबार मार्ग', 'Darbar Marg'], // nor one between a vowel and a consonant with a vowel
    ['भगवती', 'Bhagwati'], // व after a consonant is w
    ['विष्णु', 'Bishnu'], // at the start b
    ['नमस्ते', 'Namaste'], // before a cluster the a stays
    ['इन्द्र', 'Indra'], // and after one at the end
    ['र', 'Ra'], // a word of one consonant keeps it
    ['ज्ञानेश्वर', 'Gyaneshwar'], // ज्ञ is gy
    ['कृष्ण', 'Krishna'],
    ['रामचन्द्र', 'Ramchandra'],
    ['महेन्द्रेश्वर मन्दिर', 'Mahendreshwar Mandir'],
    ['बाँसघारी', 'Bansghari'], // candrabindu as n
    ['शम्भु', 'Shambhu'],
    ['संभु', 'Sambhu'], // anusvara before a labial is m
  ])('%s → %s', (deva, latin) => {
    expect(toLatin(deva)).toBe(latin);
  });

  it('keeps Latin letters, spaces and punctuation; Devanagari digits become 0–9', () => {
    expect(toLatin('पम्परनिकेल बेकरी (थमेल)')).toBe('Pamparnikel Bekari (Thamel)');
    expect(toLatin('वडा नं. ३२')).toBe('Bada Nan. 32');
    expect(toLatin('Hotel Yak & Yeti')).toBe('Hotel Yak & Yeti');
  });
});

describe('toDevanagari: romanized Nepali in Devanagari', () => {
  it.each([
    ['Thahiti', 'थहिटि'], // letter by letter: th is थ
    ['Sita', 'सिटा'], // a word's last a is long; t is ट, as Nepali writes English words
    ['Bhaktakot', 'भक्टकोट'], // clusters joined with a virama
    ['Gyaneshwar', 'ज्ञनेश्वर'],
    ['Darbar Marg', 'डर्बर मर्ग'],
  ])('%s → %s', (latin, deva) => {
    expect(toDevanagari(latin)).toBe(deva);
  });

  it.each([
    ['Kathmandu', 'काठमाडौं'],
    ['Thamel', 'ठमेल'],
    ['Bhaktapur', 'भक्तपुर'],
    ['Patan Durbar', 'पाटन दरबार'],
    ['Pokhara', 'पोखरा'],
    ['Swayambhu', 'स्वयम्भू'],
  ])('a well-known name the letters cannot spell, as Nepali writes it: %s → %s', (latin, deva) => {
    expect(toDevanagari(latin)).toBe(deva);
  });

  it('n before k or g is an anusvara; before any other consonant n and m are half letters, never an anusvara', () => {
    // real Nepali spellings
    expect(toDevanagari('Ganga')).toBe('गंगा');
    expect(toDevanagari('Samjhana')).toBe('सम्झना');
    expect(toDevanagari('Kanya')).toBe('कन्या');
    expect(toDevanagari('Jhamsikhel')).toBe('झम्सिखेल');
    // Amrit is अमृत: no anusvara before its r
    expect(toDevanagari('Amrit')).not.toContain('ं');
    expect(toDevanagari('Amrit')).toMatch(/^अम्र/);
  });

  it('English spellings: a doubled l, s, f or z at the end once (a doubled t stays: Bhatt)', () => {
    expect(toDevanagari('Bell')).toBe('बेल');
    expect(toDevanagari('Mall')).toBe('मल');
    expect(toDevanagari('Bhatt')).toBe('भट्ट');
  });

  it.each([
    ['Cafe', 'क्याफे'],
    ['Restaurant', 'रेस्टुरेन्ट'],
    ['Bank', 'बैंक'],
    ['And', 'एण्ड'],
    ['Hotel', 'होटल'],
    ['School', 'स्कूल'],
    ['House', 'हाउस'],
    ['College', 'कलेज'],
    ['Pharmacy', 'फार्मेसी'],
    ['Bakery', 'बेकरी'],
  ])('the English word %s as Nepali writes it: %s', (latin, deva) => {
    expect(toDevanagari(latin)).toBe(deva);
    expect(toDevanagari(latin.toUpperCase())).toBe(deva);
  });

  it('a name of several words: each word by its own rule', () => {
    expect(toDevanagari('Guest House and Cafe')).toBe('गेस्ट हाउस एण्ड क्याफे');
  });

  it('keeps digits and punctuation', () => {
    expect(toDevanagari('Ward 32, New Road')).toBe('वर्ड 32, नेव रोड');
  });
});

describe('phoneticKey: one key for a name in either script and its common spellings', () => {
  it.each([
    ['Kathmandu', 'Kathmandau', 'Kaathmaadau', 'काठमाडौं'],
    ['Thamel', 'Thamell', 'ठमेल'],
    ['Durbar', 'Darbar', 'दरबार'],
    ['Dillibazar', 'Dillibajar', 'डिल्लीबजार'],
    ['Gyaneshwar', 'Gyaneswor', 'ज्ञानेश्वर'],
    ['Bhagwati', 'Bhagawati', 'Bhagvati', 'भगवती'],
    ['Ramchandra', 'रामचन्द्र'],
    ['Maitidevi', 'मैतीदेवी'],
    ['Khichapokhari', 'खिचापोखरी'],
    ['Parking', 'पार्किङ'],
    ['Cafe', 'Café', 'क्याफे'],
    ['Station', 'स्टेशन'],
    ['Pharmacy', 'फार्मेसी'],
  ])('%s', (...names) => {
    const keys = names.map(phoneticKey);
    expect(new Set(keys).size, `${names.join(', ')}: ${keys.join(', ')}`).toBe(1);
    expect(keys[0].length).toBeGreaterThan(0);
  });

  // spelled every way Nepalis write them: the h moved or dropped, a nasal joined to the next
  // letter (ङ्क, ञ्ज) or an inherent a between (कनतल्ला), English spellings of loanwords
  it.each([
    ['Sorhahatte', 'Sohrahate', 'सोह्रहाते'],
    ['Bramha', 'Brahma', 'ब्रह्म'],
    ['Markham', 'मार्कहम'],
    ['Hankook', 'हङ्कुक'],
    ['Ranjana', 'रञ्जना'],
    ['Pancha', 'पञ्च'],
    ['Nhaikantalla', 'न्हैकनतल्ला'],
    ['Union', 'युनियन'],
    ['School', 'स्कूल'],
    ['Kitchen', 'किचन'],
    ['Queen', 'क्वीन'],
    ['Delight', 'डिलाईट'],
    ['Unique', 'युनिक'],
    ['Chowk', 'Chok', 'चोक'],
  ])('%s', (...names) => {
    const keys = names.map(phoneticKey);
    expect(new Set(keys).size, `${names.join(', ')}: ${keys.join(', ')}`).toBe(1);
  });

  it('tells different names apart', () => {
    const names = ['Thamel', 'Asan', 'Kathmandu', 'Patan', 'Lazimpat', 'Baneshwar', 'Naxal', 'Chabahil', 'Nakhu', 'Hari', 'Ari'];
    expect(new Set(names.map(phoneticKey)).size).toBe(names.length);
  });

  it('a word with no letters has the empty key', () => {
    expect(phoneticKey('123')).toBe('');
    expect(phoneticKey('।')).toBe('');
  });

  it("on the fixture's names in both scripts, most words of the same position share their key", async () => {
    // The rest are translations (Temple / मन्दिर, School / विद्यालय): no key can join those.
    const raw = await readRaw();
    let pairs = 0,
      same = 0;
    for (const o of [...raw.nodes.values(), ...raw.ways.values()]) {
      const ne = tag(o.tags, 'name:ne');
      const en = tag(o.tags, 'name:en') ?? tag(o.tags, 'name');
      if (!ne || !en || scriptOf(en) !== 'latin') continue;
      const a = en.split(/[\s,;()-]+/).filter(Boolean),
        b = ne.split(/[\s,;()-]+/).filter(Boolean);
      if (a.length !== b.length) continue;
      a.forEach((w, i) => {
        pairs++;
        if (phoneticKey(w) === phoneticKey(b[i])) same++;
      });
    }
    expect(pairs).toBeGreaterThan(1000);
    expect(same / pairs).toBeGreaterThan(0.6);
  });
});

describe('phoneticKeys: the other readings of a word share a key with the other script', () => {
  it.each([
    ['Sunrise', 'सनराइज'], // an s between vowels said z, written ज
    ['Kaiser', 'काइजर'],
    ['College', 'कलेज'], // a g before e said j
    ['Management', 'म्यानेजमेन्ट'],
    ['Education', 'एजुकेशन'], // du said ju
    ['Echo', 'इको'], // ch said k
    ['Technology', 'टेक्नोलोजी'],
    ['Dashain', 'दशैं'], // an anusvara written n
    ['Nepal', 'नेपालको'], // Nepali's "of" on the name
    ['Gallery', 'ग्यालरीहरू'],
  ])('%s, %s', (latin, deva) => {
    const shared = phoneticKeys(latin).filter((k) => phoneticKeys(deva).includes(k));
    expect(shared, `${phoneticKeys(latin)} / ${phoneticKeys(deva)}`).not.toEqual([]);
  });

  it('the first key is phoneticKey', () => {
    for (const w of ['Sunrise', 'दशैं', 'नेपालको', 'Thamel']) expect(phoneticKeys(w)[0]).toBe(phoneticKey(w));
  });
});

describe('spelledLetters: Latin letters spelled out in Devanagari', () => {
  it.each([
    ['एसबीआई', 'sbi'],
    ['एसबिआई', 'sbi'], // a long vowel written short
    ['एटीएम', 'atm'],
    ['केकेएफसी', 'kkfc'],
    ['आर', 'r'],
    ['क्यू', 'q'],
  ])('%s → %s', (deva, latin) => {
    expect(spelledLetters(deva)).toBe(latin);
  });

  it('not a word that spells something else', () => {
    for (const w of ['नेपाल', 'ठमेल', 'बैंक', 'एसको']) expect(spelledLetters(w)).toBeUndefined();
  });

  it('an abbreviation matches its letters spelled out, by `@` and the letters', () => {
    for (const [latin, deva] of [
      ['sbi', 'एसबीआई'],
      ['kc', 'केसीको'],
    ])
      expect(matchKeys(latin).filter((k) => matchKeys(deva).includes(k))).toEqual([`@${latin}`]);
  });
});

describe('matchKeys: numbers and words by meaning', () => {
  it('a number in either script has one key', () => {
    expect(matchKeys('२७')).toEqual(matchKeys('27'));
    expect(matchKeys('27')).toEqual(['=27']);
  });

  it('a street is a street whatever its word (Road, Path, मार्ग, सडक)', () => {
    const meaning = (w: string) => matchKeys(w).filter((k) => k.startsWith('='));
    for (const w of ['road', 'path', 'marg', 'sadak', 'सडक', 'पथ']) expect(meaning(w)).toEqual(meaning('मार्ग'));
  });
});

describe('vowelKey: the key with its vowels', () => {
  it('agrees across scripts where the vowels do', () => {
    for (const [a, b] of [
      ['Bank', 'बैंक'],
      ['Nepal', 'नेपाल'],
      ['Sama', 'सामा'],
      ['Radhe', 'राधे'],
    ])
      expect(vowelKey(a)).toBe(vowelKey(b));
  });

  it('tells apart words of one phoneticKey', () => {
    expect(phoneticKey('Bank')).toBe(phoneticKey('Book'));
    expect(vowelKey('Bank')).not.toBe(vowelKey('Book'));
  });
});

describe('scriptOf', () => {
  it('Devanagari wins over Latin in a mixed name; neither is other', () => {
    expect(scriptOf('पम्परनिकेल बेकरी (Thamel)')).toBe('deva');
    expect(scriptOf('Thamel 3')).toBe('latin');
    expect(scriptOf('123 - !')).toBe('other');
  });
});

/**
 * The key's Latin rules written as the documentation states them, one rule a pass in its order:
 * a second reading that the key's one-pass folding must agree with.
 */
function keyByRules(latin: string): string {
  let s = latin
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/hh+/g, 'h');
  if (!s) return '';
  for (const [re, to] of [
    [/ew$/, 'u'],
    [/que$/, 'k'],
    [/tion/g, 'sn'],
    [/ture/g, 'Cr'],
    [/tch/g, 'C'],
    [/sch/g, 'sk'],
    [/ght/g, 't'],
    [/c(?=[eiy])/g, 's'],
    [/ksh|x/g, 'ks'],
    [/chh|ch/g, 'C'],
    [/qu/g, 'kw'],
    [/ck|c|q/g, 'k'],
    [/sh/g, 's'],
    [/jny|gny/g, 'gy'],
    [/ph|f/g, 'p'],
    [/ow(?![aeiouy])/g, 'o'],
    [/[vw]/g, 'b'],
    [/z/g, 'j'],
    [/([bdgjkprtC])h+/g, '$1'],
    [/(?<=.)h/g, ''],
    [/ri/g, 'r'],
    [/(.)\1+/g, '$1'],
    [/^y(?=[aeiou])/, ''],
  ] as [RegExp, string][])
    s = s.replace(re, to);
  const first = /^[aeiou]/.test(s) ? 'a' : '';
  s = s.charAt(0) + s.slice(1).replace(/[aeiouy]/g, '');
  if (first) s = s.slice(1);
  // past the first letter, unless that was a vowel
  s = first ? s.replace(/n(?=[tdCjkg])|m(?=[pb])/g, '') : s.charAt(0) + s.slice(1).replace(/n(?=[tdCjkg])|m(?=[pb])/g, '');
  return first + s.toLowerCase();
}

describe('phoneticKey of Latin words: the rules as documented, one at a time', () => {
  it('agrees on every word of the fixture names and on random letters', async () => {
    const raw = await readRaw();
    const latin = new Set<string>();
    for (const o of [...raw.nodes, ...raw.ways])
      for (const [k, v] of o.tags)
        if (/^name/.test(k) && scriptOf(v) === 'latin') for (const w of v.split(/[^A-Za-z]+/)) if (w) latin.add(w);
    expect(latin.size).toBeGreaterThan(2000);
    for (const w of latin) expect(phoneticKey(w), w).toBe(keyByRules(w));
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z]{1,14}$/), (w) => phoneticKey(w) === keyByRules(w)),
      { numRuns: 3000 },
    );
  });
});
