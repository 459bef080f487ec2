/**
 * Nepali labels shaped at tile build (src/map/shape.ts, `shapeNames` in src/tiles/build.ts): what
 * a tile's `pgf:name:ne` and the archive's table of clusters stand for is HarfBuzz's own shaping
 * of the name, computed here by calling harfbuzzjs directly on the same font; the clusters fit
 * the Private Use Area, and a name beyond it is left unshaped and counted.
 */
import * as hb from 'harfbuzzjs';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { layers, namedFlavor } from '@protomaps/basemaps';
import { beforeAll, describe, expect, it } from 'vitest';
import { shapeNames, type TilesResult } from '../src/tiles/build.js';
import { summary } from '../src/cli/tiles.js';
import { withShapedGlyphs } from '../src/map/assets.js';
import { DEVANAGARI_STACK } from '../src/map/glyphs.js';
import {
  devanagariFontBytes,
  FontError,
  isShapedTable,
  placeLabel,
  PUA_FIRST,
  PUA_LAST,
  SHAPED_KEY,
  Shaper,
  shapeLabels,
  woffToSfnt,
  type ShapedTable,
} from '../src/map/shape.js';
import { mapStyle } from '../src/map/style.js';
import { FeatureSink, POINT, type FeatureTable } from '../src/tiles/features.js';
import { names } from '../src/tiles/schema.js';

/** Names of the Kathmandu fixture (`name` or `name:ne`), some with Latin words, digits or punctuation. */
const KATHMANDU = [
  'ठमेल',
  'काठमाडौं',
  'नारायणहिटी दरबार संग्रहालय',
  'ज्ञानेश्वर मार्ग',
  'मैतीदेवी मन्दिर',
  'त्रिचन्द्र कलेज',
  'प्रदर्शनी मार्ग',
  'सोह्रहाते गणेश',
  'महेन्द्रेश्वर मन्दिर',
  'दरबारमार्ग प्रहरी चौकी',
  'सिद्धार्थ बैंक',
  'अष्टसिद्धि गणेश मन्दिर',
  'रञ्जना पार्किङ',
  'कमलाक्षी',
  'पूर्वाधार विकास बैंक',
  'बीर अस्पताल प्रवेश द्वार ७',
  'गार्डेन अफ ड्रिम्स पार्किङ्',
  'ठमेल ट्रेकर्स होटल',
  'काठमाडौं फाइनान्स प्रा. लि',
  'फलोरैन्स fashion नेपाल',
];

let shaper: Shaper;
let font: hb.Font;

beforeAll(async () => {
  const bytes = await devanagariFontBytes();
  shaper = await Shaper.load(bytes);
  font = new hb.Font(new hb.Face(new hb.Blob(bytes)));
});

/** HarfBuzz's glyphs of `text`, placed: x = the advances before + x offset, y = y offset. */
function harfbuzz(text: string): { id: number; x: number; y: number }[] {
  const buf = new hb.Buffer();
  buf.addText(text);
  buf.guessSegmentProperties();
  hb.shape(font, buf);
  let pen = 0;
  return buf.getGlyphInfosAndPositions().map((g) => {
    const out = { id: g.codepoint, x: pen + (g.xOffset ?? 0), y: g.yOffset ?? 0 };
    pen += g.xAdvance ?? 0;
    return out;
  });
}

/** Each word of Devanagari letters. */
function devanagariWords(text: string): string[] {
  return text.match(/[\u0900-\u097f]+/g) ?? [];
}

/** The fixture's names as features, through the schema's `names` as the build writes them, and `shapeNames`. */
function build(
  list: string[],
  props: (n: string) => [string, string][] = (n) => [['name', n]],
): { table: FeatureTable; shaped: ShapedTable } {
  const sink = new FeatureSink();
  for (const n of list) sink.add({ layer: 'pois', type: POINT, minZoom: 14, props: names(new Map(props(n))) }, [0, 0], [1]);
  const out = shapeNames(sink.finish(), shaper);
  return { table: out.table, shaped: out.shaped.table };
}

function property(t: FeatureTable, f: number, key: string): string | undefined {
  const k = t.keys.indexOf(key);
  for (let i = t.propStart[f]!; i < t.propStart[f + 1]!; i++) if (t.props[2 * i] === k) return String(t.values[t.props[2 * i + 1]!]);
  return undefined;
}

describe("a shaped label stands for HarfBuzz's shaping of the name", () => {
  it('for each of 20 Kathmandu names, the glyphs and places written equal harfbuzzjs shaping the name', () => {
    const { table, shaped } = build(KATHMANDU);
    expect(table.count).toBe(KATHMANDU.length);
    for (let f = 0; f < table.count; f++) {
      const name = property(table, f, 'name')!;
      const label = property(table, f, 'pgf:name:ne');
      expect(label, name).toBeDefined();
      let placed = placeLabel(label!, shaped, shaper)!;
      if (/^[\u0900-\u097f ]+$/.test(name)) {
        // all in the face: the whole name at once
        expect(placed, name).toEqual(harfbuzz(name));
      } else {
        // mixed: the Latin, digits and stops are written as themselves (drawn from Noto Sans), each
        // Devanagari word as HarfBuzz shapes it, one after the other (the spaces aside)
        const space = harfbuzz(' ')[0]!.id;
        placed = placed.filter((g) => g.id !== space);
        const runs = devanagariWords(name).map(harfbuzz);
        expect(runs.length).toBeGreaterThan(0);
        let at = 0;
        for (const [i, run] of runs.entries()) {
          const part = placed.slice(at, at + run.length);
          const x0 = part[0]!.x;
          expect(
            part.map((g) => ({ ...g, x: g.x - x0 })),
            `${name}: run ${i}`,
          ).toEqual(run);
          at += run.length;
        }
        expect(at).toBe(placed.length);
        for (const ch of name.replace(/[\u0900-\u097f ]/g, '')) expect(label, name).toContain(ch);
      }
    }
  });

  it('writes a cluster as one code point of the Private Use Area, a space as a space, and nothing else of the face', () => {
    const { table, shaped } = build(['प्रदर्शनी मार्ग']);
    const label = property(table, 0, 'pgf:name:ne')!;
    const chars = [...label];
    expect(chars.filter((c) => c === ' ')).toHaveLength(1);
    for (const c of chars.filter((c) => c !== ' ')) {
      expect(c.codePointAt(0)).toBeGreaterThanOrEqual(PUA_FIRST);
      expect(c.codePointAt(0)).toBeLessThanOrEqual(PUA_LAST);
    }
    // प्र, द, र्श, नी, मा, र्ग: one code point per syllable, not per letter (15 letters)
    expect(chars.length - 1).toBe(6);
    expect(shaped.clusters.length).toBe(6);
  });

  it('shapes a Devanagari `name` without `name:ne`, and prefers `name:ne` to an English `name`', () => {
    const { table } = build(['ठमेल'], (n) => [
      ['name', 'Thamel'],
      ['name:ne', n],
    ]);
    expect(placeLabel(property(table, 0, 'pgf:name:ne')!, build(['ठमेल']).shaped, shaper)).toEqual(harfbuzz('ठमेल'));
    expect(property(build(['Thamel']).table, 0, 'pgf:name:ne')).toBeUndefined();
  });
});

describe('the build summary counts the names shaped and those left unshaped', () => {
  const result = (overflow: number): TilesResult => ({
    features: 10,
    skipped: 0,
    zooms: [],
    archive: { addressed: 1, contents: 1, entries: 1, leaves: 0, bytes: 100 } as TilesResult['archive'],
    bounds: [85, 27, 86, 28],
    shaped: { names: 704, features: 894, clusters: 472, overflow },
    timings: { read: 1, features: 1, tiles: 1 },
  });
  it('says how many, and how many were left unshaped', () => {
    expect(summary(result(0), 'x.pmtiles', 1000, 5)).toContain(
      '  nepali    704 names shaped on 894 features, 472 clusters; none left unshaped',
    );
    expect(summary(result(3), 'x.pmtiles', 1000, 5).join('\n')).toMatch(
      /nepali .* 3 left unshaped \(their clusters beyond the 6,400 code points\)/,
    );
  });
});

describe('the table of clusters', () => {
  it('is the same whatever the order the names come in (by use, then by glyphs)', () => {
    const a = shapeLabels(KATHMANDU, shaper).table;
    const b = shapeLabels([...KATHMANDU].reverse(), shaper).table;
    expect(b).toEqual(a);
    expect(isShapedTable(a)).toBe(true);
    expect(a.font).toMatch(/^Noto Sans Devanagari Regular Version /);
  });

  it('gives the commonest clusters code points first; a name needing one beyond the budget is left unshaped and counted', () => {
    const all = shapeLabels(KATHMANDU, shaper);
    expect(all.overflow).toBe(0);
    expect(all.needed).toBe(all.table.clusters.length);
    const small = shapeLabels(KATHMANDU, shaper, { budget: 10 });
    expect(small.table.clusters).toHaveLength(10);
    expect(small.needed).toBe(all.needed);
    const unshaped = KATHMANDU.filter((n) => small.labels.get(n) === undefined);
    expect(small.overflow).toBe(unshaped.length);
    expect(unshaped.length).toBeGreaterThan(0);
    // the names it did shape are shaped right, with the small table
    for (const n of KATHMANDU.filter((n) => small.labels.get(n) !== undefined && /^[\u0900-\u097f ]+$/.test(n))) {
      expect(placeLabel(small.labels.get(n)!, small.table, shaper)).toEqual(harfbuzz(n));
    }
  });

  it('keeps a cluster of more glyphs than a table may hold as its text (a letter under 40 candrabindus)', () => {
    const odd = `क${'\u0901'.repeat(40)}`;
    expect(shaper.clusters(odd)).toHaveLength(1);
    const r = shapeLabels([odd, 'ठमेल'], shaper);
    expect(r.labels.get(odd)).toBe(odd);
    expect(isShapedTable(r.table)).toBe(true);
  });

  it('refuses what is not one: junk, too many clusters, glyphs not in threes', () => {
    const t = shapeLabels(['ठमेल'], shaper).table;
    expect(isShapedTable(t)).toBe(true);
    expect(isShapedTable({ ...t, clusters: [[1, 2, 3]] })).toBe(false);
    expect(isShapedTable({ ...t, clusters: [[1.5]] })).toBe(false);
    expect(isShapedTable({ ...t, clusters: Array.from({ length: 6401 }, () => [1]) })).toBe(false);
    expect(isShapedTable({ ...t, upem: 0 })).toBe(false);
    expect(isShapedTable('x')).toBe(false);
  });
});

describe('the font', () => {
  it('is read from the WOFF Fontsource ships; bytes that are not WOFF are a FontError', async () => {
    expect(() => woffToSfnt(new Uint8Array(100))).toThrow(FontError);
    const sfnt = await devanagariFontBytes();
    expect(new DataView(sfnt.buffer, sfnt.byteOffset).getUint32(0)).toBe(0x00010000);
    // cut short: the table directory points past the end
    const woff = new Uint8Array(
      await (
        await import('node:fs/promises')
      ).readFile(
        new URL('../node_modules/@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff', import.meta.url),
      ),
    );
    expect(() => woffToSfnt(woff.subarray(0, 2000))).toThrow(FontError);
    // and bytes HarfBuzz finds no font in
    await expect(Shaper.load(new Uint8Array(64))).rejects.toThrow(FontError);
  });
});

describe('the glyphs of the clusters, served per archive', () => {
  const files = { get: async (path: string) => new TextEncoder().encode(path) };

  it("draws the Private Use Area ranges of the Devanagari stack from the archive's table; every other file is the assets' own", async () => {
    const { shaped } = build(KATHMANDU);
    const { assets, problem } = await withShapedGlyphs(files, { [SHAPED_KEY]: shaped });
    expect(problem).toBeUndefined();
    const pbf = await assets!.get(`fonts/${DEVANAGARI_STACK}/57344-57599.pbf`);
    expect(pbf!.length).toBeGreaterThan(1000);
    expect(new TextDecoder().decode(await assets!.get(`fonts/${DEVANAGARI_STACK}/0-255.pbf`))).toBe(`fonts/${DEVANAGARI_STACK}/0-255.pbf`);
    expect(new TextDecoder().decode(await assets!.get('fonts/Noto Sans Regular/57344-57599.pbf'))).toBe(
      'fonts/Noto Sans Regular/57344-57599.pbf',
    );
  });

  it('says why it cannot draw a table of another font, or a damaged one, and draws none', async () => {
    const { shaped } = build(['ठमेल']);
    const other = await withShapedGlyphs(files, { [SHAPED_KEY]: { ...shaped, font: 'Noto Sans Devanagari Regular Version 1.0' } });
    expect(other.problem).toMatch(/shaped with Noto Sans Devanagari Regular Version 1\.0.*rebuild the tiles/);
    expect(other.assets).toBe(files);
    expect((await withShapedGlyphs(files, { [SHAPED_KEY]: { clusters: 'x' } })).problem).toMatch(/not a table of clusters/);
    expect((await withShapedGlyphs(files, {})).assets).toBe(files);
  });
});

describe('the Nepali style', () => {
  const urls = { base: 'http://127.0.0.1/api/v1', key: 'k' };

  it('is valid, reads the shaped name first in the Devanagari stack, and keeps the English labels behind it', () => {
    for (const name of ['breeze', 'dark']) {
      const style = mapStyle(name, urls, { lang: 'ne' });
      expect(validateStyleMin(style as never)).toEqual([]);
      const text = JSON.stringify(style.layers);
      const labelled = (style.layers as { layout?: Record<string, unknown> }[]).filter((l) =>
        JSON.stringify(l.layout?.['text-field'] ?? '').includes('pgf:name:ne'),
      );
      // every name label: water, roads, POIs, places (not house numbers or shields)
      expect(labelled.length).toBe(11);
      expect(text).toContain(JSON.stringify(['format', ['get', 'pgf:name:ne'], { 'text-font': ['literal', [DEVANAGARI_STACK]] }]));
    }
  });

  it('leaves the English style as basemaps draws it', () => {
    expect(mapStyle('breeze', urls).layers).toEqual(layers('nepal-places', namedFlavor('light'), { lang: 'en' }));
    expect(mapStyle('breeze', urls, { lang: 'en' }).layers).toEqual(mapStyle('breeze', urls).layers);
    expect(() => mapStyle('breeze', urls, { lang: 'fr' as never })).toThrow(RangeError);
  });
});
