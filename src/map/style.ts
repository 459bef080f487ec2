/**
 * The map styles: MapLibre style documents whose layers come from `@protomaps/basemaps` (the
 * tiles follow its schema), so that no style layer is written by hand here. What this module adds
 * is only the document around them: the source, glyph and sprite URLs pointing back at this
 * server, and the style's name.
 */
import { get_country_name, get_multiline_name, layers, namedFlavor } from '@protomaps/basemaps';
import { DEVANAGARI_STACK } from './glyphs.js';

/** The styles served, by name: the basemaps flavor each one is drawn in. `breeze` is the default. */
export const STYLES: Readonly<Record<string, { flavor: string; sprite: string }>> = Object.freeze({
  breeze: { flavor: 'light', sprite: 'breeze' },
  dark: { flavor: 'dark', sprite: 'dark' },
});

/** The default style's name. */
export const DEFAULT_STYLE = 'breeze';

/** The id of the vector source in every style. */
export const SOURCE = 'nepal-places';

/** What every map of the data must credit. */
export const ATTRIBUTION = '<a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a>';

/** Where a style's resources are: `base` is the API root (`https://host/api/v1`), `key` the API key. */
export interface StyleUrls {
  base: string;
  key: string;
}

/** A MapLibre style document (version 8), as JSON. */
export interface StyleDocument {
  version: 8;
  name: string;
  sources: Record<string, { type: 'vector'; url: string; attribution: string }>;
  glyphs: string;
  sprite: string;
  layers: unknown[];
  [more: string]: unknown;
}

/**
 * The label languages: `en`, basemaps' English labels; `ne`, Nepali, in the shaped names the
 * tiles carry (`pgf:name:ne`, see `src/map/shape.ts`) and the fontstack whose glyphs are their
 * clusters.
 */
export const LANGS = ['en', 'ne'] as const;
/** One of `LANGS`. */
export type Lang = (typeof LANGS)[number];

/** Whether `lang` is one of `LANGS`. */
export function isLang(lang: string): lang is Lang {
  return (LANGS as readonly string[]).includes(lang);
}

/** Whether `name` is a style this server has. */
export function hasStyle(name: string): boolean {
  return Object.hasOwn(STYLES, name);
}

/**
 * The style document `name`, its URLs under `urls.base` carrying `urls.key`.
 * In English (the default), basemaps' `lang: 'en'` labels: `name:en`, then `name`. In Nepali,
 * the same layers, each name label being the shaped Nepali name where the feature has one (its
 * clusters in `DEVANAGARI_STACK`, no letter spacing, which would part the clusters' headline),
 * then its `name:ne` unshaped (a name beyond the archive's clusters, which MapLibre draws as
 * it can), then the English label.
 * @throws {RangeError} for a name that is not in `STYLES`, or a `lang` not in `LANGS`
 */
export function mapStyle(name: string, urls: StyleUrls, options: { lang?: Lang } = {}): StyleDocument {
  if (!hasStyle(name)) throw new RangeError(`no style named ${JSON.stringify(name)}; styles: ${Object.keys(STYLES).join(', ')}`);
  const lang = options.lang ?? 'en';
  if (!isLang(lang)) throw new RangeError(`no label language ${JSON.stringify(lang)}; languages: ${LANGS.join(', ')}`);
  const { flavor, sprite } = STYLES[name]!;
  const key = `key=${encodeURIComponent(urls.key)}`;
  return {
    version: 8,
    name,
    sources: {
      [SOURCE]: { type: 'vector', url: `${urls.base}/tiles.json?${key}`, attribution: ATTRIBUTION },
    },
    glyphs: `${urls.base}/fonts/{fontstack}/{range}.pbf?${key}`,
    sprite: `${urls.base}/sprites/${sprite}?${key}`,
    layers: styleLayers(flavor, lang),
  };
}

// The layers depend only on the flavor and language: built once each (the basemaps expressions are large).
const layerCache = new Map<string, unknown[]>();
function styleLayers(flavor: string, lang: Lang): unknown[] {
  let out = layerCache.get(`${flavor}/${lang}`);
  if (!out) {
    const english = layers(SOURCE, namedFlavor(flavor), { lang: 'en' });
    layerCache.set(`${flavor}/${lang}`, (out = lang === 'ne' ? nepaliLayers(english, flavor) : english));
  }
  return out;
}

// The English layers with each of basemaps' name labels (the whole expression, found by its
// JSON) put behind the Nepali name, and letter spacing off where a shaped name is drawn.
function nepaliLayers(english: unknown[], flavor: string): unknown[] {
  const f = namedFlavor(flavor);
  const labels = new Set([JSON.stringify(get_multiline_name('en', 'Latin', f.regular)), JSON.stringify(get_country_name('en', 'Latin'))]);
  const font = { 'text-font': ['literal', [DEVANAGARI_STACK]] };
  const swap = (v: unknown): unknown => {
    if (!Array.isArray(v)) return v;
    if (labels.has(JSON.stringify(v))) {
      return [
        'case',
        ['has', 'pgf:name:ne'],
        ['format', ['get', 'pgf:name:ne'], font],
        ['has', 'name:ne'],
        ['format', ['get', 'name:ne'], font],
        v,
      ];
    }
    return v.map(swap);
  };
  return english.map((layer) => {
    const l = layer as { layout?: Record<string, unknown> };
    if (!l.layout?.['text-field']) return layer;
    const layout: Record<string, unknown> = { ...l.layout, 'text-field': swap(l.layout['text-field']) };
    const spacing = layout['text-letter-spacing'];
    if (spacing !== undefined) layout['text-letter-spacing'] = ['case', ['has', 'pgf:name:ne'], 0, spacing];
    return { ...l, layout };
  });
}
