/**
 * `lang`: names in English or Nepali on every query, read against the fixture's raw tags
 * (osm-read, no engine code), and an unknown language refused naming `lang`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidQueryError, nearby, place, reverse, route, search } from '../src/index.js';
import type { PlaceIndex } from '../src/index.js';
import { engine, expected, CENTER } from './support/fixture.js';
import { readRaw, tag, type RawData, type RawTag } from './support/raw.js';
import { displayName } from './support/names.js';
import { addressBook } from './support/address.js';
import { SIGNS, TEMPLATES, formatDistance, formatDuration, nepaliText } from '../src/lang/directions.js';
import { textIn } from '../src/osm/name.js';

let index: PlaceIndex;
let raw: RawData;
// every object of the fixture that the engine holds a row for, with its raw tags
const rows: { placeId: number; tags: RawTag[] }[] = [];
// the places (rows with a type; not streets or localities, whose addresses leave themselves out), and every
// third of them: the raw address book measures every street for each, a minute for all the places on a busy machine
let places: { placeId: number; tags: RawTag[] }[] = [];
let sample: { placeId: number; tags: RawTag[] }[] = [];

beforeAll(async () => {
  index = await engine();
  raw = await readRaw();
  places = (await expected()).places.filter((p) => p.types.length > 0).map((p) => ({ placeId: p.placeId, tags: p.rawTags }));
  sample = places.filter((_, i) => i % 3 === 0);
  const all: [number, { id: number; tags: RawTag[] }[]][] = [
    [0, raw.nodes],
    [1, raw.ways],
    [2, raw.relations],
  ];
  for (const [kind, list] of all) {
    for (const o of list) {
      const placeId = o.id * 4 + kind;
      if (place(index, placeId)) rows.push({ placeId, tags: o.tags });
    }
  }
});

const DEVANAGARI = /[\u0900-\u097f]/;
const LATIN = /[A-Za-z]/;
const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

describe('lang=ne: the name is name:ne where tagged, else a Devanagari name, else a marked transliteration', () => {
  it('equals name:ne, not transliterated, wherever name:ne is tagged (in Devanagari)', () => {
    const tagged = rows.filter((r) => given(tag(r.tags, 'name:ne')) && !LATIN.test(tag(r.tags, 'name:ne')!));
    expect(tagged.length).toBeGreaterThan(500);
    for (const r of tagged) {
      const p = place(index, r.placeId, { lang: 'ne' })!;
      expect([r.placeId, p.name, p.nameTransliterated]).toEqual([r.placeId, tag(r.tags, 'name:ne'), false]);
    }
  });

  it('a name:ne mistagged in Latin letters is not taken for Nepali', () => {
    const mistagged = rows.filter((r) => LATIN.test(tag(r.tags, 'name:ne') ?? '') && !DEVANAGARI.test(tag(r.tags, 'name:ne')!));
    expect(mistagged.length).toBeGreaterThan(0);
    for (const r of mistagged) {
      const p = place(index, r.placeId, { lang: 'ne' })!;
      expect(p.name, `${r.placeId} ${p.name}`).toMatch(DEVANAGARI);
    }
  });

  it('is `name` where name:ne is absent and `name` is in Devanagari', () => {
    const deva = rows.filter((r) => !given(tag(r.tags, 'name:ne')) && DEVANAGARI.test(tag(r.tags, 'name') ?? ''));
    expect(deva.length).toBeGreaterThan(10);
    for (const r of deva) {
      const p = place(index, r.placeId, { lang: 'ne' })!;
      expect([p.name, p.nameTransliterated]).toEqual([tag(r.tags, 'name'), false]);
    }
  });

  it('is in Devanagari, marked transliterated, where the place has only Latin names', () => {
    const latin = rows.filter(
      (r) =>
        !given(tag(r.tags, 'name:ne')) &&
        LATIN.test(tag(r.tags, 'name') ?? tag(r.tags, 'name:en') ?? '') &&
        !DEVANAGARI.test(tag(r.tags, 'name') ?? ''),
    );
    expect(latin.length).toBeGreaterThan(100);
    for (const r of latin) {
      const p = place(index, r.placeId, { lang: 'ne' })!;
      expect(p.nameTransliterated, String(r.placeId)).toBe(true);
      expect(p.name, `${r.placeId} ${p.name}`).toMatch(DEVANAGARI);
      expect(p.name, `${r.placeId} ${p.name}`).not.toMatch(LATIN);
    }
  });
});

describe('lang=en: the name is name:en where tagged, else a Latin name, else a marked transliteration', () => {
  it('equals name:en wherever it is tagged (in Latin letters)', () => {
    const tagged = rows.filter((r) => given(tag(r.tags, 'name:en')) && !DEVANAGARI.test(tag(r.tags, 'name:en')!));
    expect(tagged.length).toBeGreaterThan(1000);
    for (const r of tagged) {
      const p = place(index, r.placeId, { lang: 'en' })!;
      expect([p.name, p.nameTransliterated]).toEqual([tag(r.tags, 'name:en'), false]);
    }
  });

  it('transliterates a name written only in Devanagari into Latin letters, and says so', () => {
    const deva = rows.filter((r) => !given(tag(r.tags, 'name:en')) && DEVANAGARI.test(tag(r.tags, 'name') ?? tag(r.tags, 'name:ne') ?? ''));
    expect(deva.length).toBeGreaterThan(10);
    for (const r of deva) {
      const p = place(index, r.placeId, { lang: 'en' })!;
      expect([p.nameTransliterated, DEVANAGARI.test(p.name), LATIN.test(p.name)], `${r.placeId} ${p.name}`).toEqual([true, false, true]);
    }
  });
});

describe('without lang: the names as mapped, no nameTransliterated', () => {
  it('name is `name`, else name:en, else name:ne; the record has no nameTransliterated', () => {
    for (const r of rows.slice(0, 2000)) {
      const p = place(index, r.placeId)!;
      expect(p.name).toBe(displayName(r.tags));
      expect('nameTransliterated' in p).toBe(false);
    }
  });
});

describe('every query takes lang', () => {
  const at = new Date('2026-01-17T06:15:00Z');
  it('nearby, search and reverse name their records in the language asked for', () => {
    for (const lang of ['en', 'ne'] as const) {
      const byId = (id: number) => place(index, id, { lang })!;
      for (const r of nearby(index, { type: 'restaurant', ...CENTER, radius: 3, limit: 50, at, lang })) {
        expect([r.name, r.address, r.nameTransliterated]).toEqual([
          byId(r.placeId).name,
          byId(r.placeId).address,
          byId(r.placeId).nameTransliterated,
        ]);
      }
      for (const r of search(index, { q: 'thamel', limit: 20, lang })) {
        expect([r.name, r.address, r.nameTransliterated]).toEqual([
          byId(r.placeId).name,
          byId(r.placeId).address,
          byId(r.placeId).nameTransliterated,
        ]);
      }
      for (const r of reverse(index, { lat: 27.7154, lon: 85.3123, limit: 10, at, lang })) {
        expect([r.name, r.address, r.nameTransliterated]).toEqual([
          byId(r.placeId).name,
          byId(r.placeId).address,
          byId(r.placeId).nameTransliterated,
        ]);
      }
    }
  });

  it('an unknown lang is an InvalidQueryError naming lang, in every query', () => {
    const bad = ['fr', 'NE', '', 'en-US', 1, null];
    for (const lang of bad) {
      const calls: (() => unknown)[] = [
        () => nearby(index, { type: 'cafe', ...CENTER, lang } as never),
        () => search(index, { q: 'thamel', lang } as never),
        () => reverse(index, { ...CENTER, lang } as never),
        () => place(index, 4, { lang } as never),
        () =>
          route(index, {
            points: [
              [27.7172, 85.324],
              [27.7154, 85.3123],
            ],
            lang,
          } as never),
      ];
      for (const call of calls) {
        let err: unknown;
        try {
          call();
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(InvalidQueryError);
        expect((err as InvalidQueryError).param).toBe('lang');
        expect((err as InvalidQueryError).message).toMatch(/en, ne/);
      }
    }
  });
});

// The official names of the districts and the province the fixture lies in (Constitution of Nepal, Schedule 4), written here again.
const NE_DISTRICT: Record<string, string> = { Kathmandu: 'काठमाडौं', Lalitpur: 'ललितपुर', Bhaktapur: 'भक्तपुर' };
const NE_PROVINCE: Record<string, string> = { 'Bagmati Province': 'बागमती प्रदेश' };
const known = (table: Record<string, string>) => (name: string) => {
  if (!(name in table)) throw new Error(`the test does not know ${name} in Nepali`);
  return table[name];
};

describe('lang=ne: an address of parts named in Nepali', () => {
  it("is the parts' name:ne (or Devanagari name), the official district and province, with no Latin letter", () => {
    const ne = addressBook(raw, {
      label: (tags) => {
        const own = tag(tags, 'name:ne');
        if (given(own) && !LATIN.test(own)) return own;
        const name = tag(tags, 'name');
        return given(name) && DEVANAGARI.test(name) ? name : undefined;
      },
      district: known(NE_DISTRICT),
      province: known(NE_PROVINCE),
    });
    let checked = 0;
    const wrong: string[] = [];
    for (const r of sample) {
      // addr:* values stay as tagged: only those already in Devanagari (or digits) are parts named in Nepali;
      // a street or locality an addr:* value names lends its name:ne, which the book does not look up
      const addr = r.tags.filter(([k]) => k.startsWith('addr:'));
      if (addr.some(([k, v]) => LATIN.test(v) || ['addr:street', 'addr:place', 'addr:suburb'].includes(k))) continue;
      const p = place(index, r.placeId, { lang: 'ne' })!;
      const want = ne(p.centroid.lon, p.centroid.lat, r.tags).address;
      if (want === undefined) continue;
      checked++;
      if (LATIN.test(p.address) || p.address !== want) wrong.push(`${r.placeId}: ${p.address} vs ${want}`);
    }
    expect(checked).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('a district and province are named in Nepali whatever the other parts', () => {
    for (const r of rows.slice(0, 3000)) {
      const p = place(index, r.placeId, { lang: 'ne' })!;
      // the district in Nepali (where an addr:city already named it, once, as in English) and the province last
      expect(p.address, String(r.placeId)).toMatch(/(^|, )(काठमाडौं|ललितपुर|भक्तपुर), ([^,]+, )*बागमती प्रदेश$/);
    }
  });
});

describe('lang=en: an address of parts named in English', () => {
  it("is the parts' name:en (or Latin name), the official district and province, with no Devanagari", () => {
    const en = addressBook(raw, {
      label: (tags) => {
        const own = tag(tags, 'name:en');
        if (given(own) && !DEVANAGARI.test(own)) return own;
        const name = tag(tags, 'name');
        return given(name) && !DEVANAGARI.test(name) ? name : undefined;
      },
      district: (d) => d,
      province: (p) => p,
    });
    let checked = 0;
    const wrong: string[] = [];
    for (const r of sample) {
      const addr = r.tags.filter(([k]) => k.startsWith('addr:'));
      if (addr.some(([k, v]) => DEVANAGARI.test(v) || ['addr:street', 'addr:place', 'addr:suburb'].includes(k))) continue;
      const p = place(index, r.placeId, { lang: 'en' })!;
      const want = en(p.centroid.lon, p.centroid.lat, r.tags).address;
      if (want === undefined) continue;
      checked++;
      if (DEVANAGARI.test(p.address) || p.address !== want) wrong.push(`${r.placeId}: ${p.address} vs ${want}`);
    }
    expect(checked).toBeGreaterThan(300);
    expect(wrong).toEqual([]);
  });

  it('has no Devanagari at all, transliterating what has no English name', () => {
    for (const r of rows) expect(place(index, r.placeId, { lang: 'en' })!.address, String(r.placeId)).not.toMatch(DEVANAGARI);
  });
});

describe('Nepali instructions: a template for every sign, with the street in Nepali', () => {
  const street = 'कान्ति पथ';
  it.each(Object.entries(SIGNS))('%s (sign %i) has a template whose text names the street and has no Latin letter', (_, sign) => {
    expect(TEMPLATES[sign]).toBeDefined();
    const text = nepaliText({ sign, name: street, exitNumber: 3, via: 2 });
    expect(text).toContain(street);
    for (const t of [text, nepaliText({ sign, name: '', exitNumber: 3, via: 2 })]) {
      expect(t).toMatch(DEVANAGARI);
      expect(t).not.toMatch(/[A-Za-z{}]/);
    }
  });

  it('no two signs read the same', () => {
    const texts = Object.values(SIGNS).map((sign) => nepaliText({ sign, name: street, exitNumber: 3, via: 2 }));
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('reads as Nepali gives directions', () => {
    expect(nepaliText({ sign: SIGNS.right, name: '' })).toBe('दायाँ मोड्नुहोस्');
    expect(nepaliText({ sign: SIGNS.right, name: street })).toBe('दायाँ मोडेर कान्ति पथमा लाग्नुहोस्');
    expect(nepaliText({ sign: SIGNS.left, name: 'H02' })).toBe('बायाँ मोडेर H02 मा लाग्नुहोस्');
    expect(nepaliText({ sign: SIGNS.roundabout, name: '', exitNumber: 3 })).toBe('गोलचक्करबाट तेस्रो निकास लिनुहोस्');
    expect(nepaliText({ sign: SIGNS.roundabout, name: '', exitNumber: 12 })).toBe('गोलचक्करबाट १२औँ निकास लिनुहोस्');
    expect(nepaliText({ sign: SIGNS.finish, name: '' })).toBe('गन्तव्यमा पुग्नुभयो');
    expect(nepaliText({ sign: SIGNS.via, name: '', via: 1 })).toBe('पहिलो बीचको गन्तव्यमा पुग्नुभयो');
  });

  it('a departure and a pushed bike have templates of their own', () => {
    expect(TEMPLATES.depart).toBeDefined();
    expect(TEMPLATES.push).toBeDefined();
    expect(nepaliText({ sign: SIGNS.continue, name: street, first: true })).toBe('कान्ति पथ हुँदै यात्रा सुरु गर्नुहोस्');
    const pushed = nepaliText({ sign: SIGNS.continue, name: street, pushed: true });
    expect(pushed).toContain(street);
    expect(pushed).toContain('साइकल');
  });

  it('distances and durations in Devanagari digits and Nepali units', () => {
    expect(formatDistance(1234, 'ne')).toBe('१.२ कि.मि.');
    expect(formatDistance(86, 'ne')).toBe('८६ मि.');
    expect(formatDistance(1234)).toBe('1.2 km');
    expect(formatDuration(4_980_000, 'ne')).toBe('१ घण्टा २३ मिनेट');
    expect(formatDuration(20_000, 'ne')).toBe('१ मिनेट');
  });
});

describe('route(lang): the same steps, their streets and texts in the language', () => {
  // Thamel to Ratna Park, by way of Asan
  const points: [number, number][] = [
    [27.7154, 85.3123],
    [27.7075, 85.3109],
    [27.7062, 85.3152],
  ];

  it("names each step in Nepali by its road's name:ne, and says it in Nepali", () => {
    const [plain] = route(index, { points, mode: 'foot', instructions: true });
    const [en] = route(index, { points, mode: 'foot', instructions: true, lang: 'en' });
    const [ne] = route(index, { points, mode: 'foot', instructions: true, lang: 'ne' });
    const steps = (r: typeof ne) => r.instructionList!.map((s) => [s.sign, s.interval, s.distance, s.time, s.exitNumber]);
    expect(steps(ne)).toEqual(steps(en));
    expect(steps(ne)).toEqual(steps(plain));
    expect(ne.encodedPolyline).toBe(plain.encodedPolyline);
    // the Nepali names of the roads a step's English name belongs to, from the raw tags; '' for a road without one
    const byEnglish = new Map<string, Set<string>>();
    for (const w of raw.ways) {
      if (!tag(w.tags, 'highway')) continue;
      const ne = tag(w.tags, 'name:ne');
      const english = given(tag(w.tags, 'name:en')) ? tag(w.tags, 'name:en') : tag(w.tags, 'name');
      if (given(english) && !DEVANAGARI.test(english))
        byEnglish.set(english, (byEnglish.get(english) ?? new Set()).add(given(ne) && DEVANAGARI.test(ne) ? ne : ''));
    }
    let named = 0;
    ne.instructionList!.forEach((s, i) => {
      const english = en.instructionList![i].name;
      expect(en.instructionList![i].text).not.toMatch(DEVANAGARI);
      expect(s.text, s.text).toMatch(DEVANAGARI);
      if (s.name) expect(s.text).toContain(s.name);
      // a name every road of that English name has in Nepali
      const want = byEnglish.get(english);
      if (want && !want.has('')) {
        named++;
        expect(want.has(s.name), `${english}: ${s.name} of ${[...want]}`).toBe(true);
        expect(s.text).not.toMatch(LATIN);
      }
    });
    expect(named).toBeGreaterThan(1);
    expect(ne.instructionList!.filter((s) => s.sign === 5).map((s) => s.text)).toEqual(['पहिलो बीचको गन्तव्यमा पुग्नुभयो']);
    expect(ne.instructionList!.at(-1)!.text).toBe('गन्तव्यमा पुग्नुभयो');
  });
});

describe('an addr:* value written in both scripts: the part in the language asked', () => {
  it.each([
    ['Ram Shah Path (पुतलीसडक)', 'पुतलीसडक', 'Ram Shah Path'],
    ['पुतलीसडक (Ram Shah Path)', 'पुतलीसडक', 'Ram Shah Path'],
    ['पुतलीसडक / Putalisadak', 'पुतलीसडक', 'Putalisadak'],
  ])('%s: ne %s, en %s', (value, ne, en) => {
    expect(textIn(value, 'ne')).toBe(ne);
    expect(textIn(value, 'en')).toBe(en);
  });

  it('a value in one script with a bracket is one value, not two', () => {
    expect(textIn('Kathmandu (North)', 'en')).toBe('Kathmandu (North)');
    expect(textIn('ठमेल (उत्तर)', 'ne')).toBe('ठमेल (उत्तर)');
    // digits are in neither script: kept whole
    expect(textIn('12 (१२)', 'ne')).toBe('12 (१२)');
  });
});
