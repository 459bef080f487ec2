/**
 * The map styles: MapLibre style documents whose layers come from `@protomaps/basemaps` (the
 * tiles follow its schema), so that no style layer is written by hand here. What this module adds
 * is only the document around them: the source, glyph and sprite URLs pointing back at this
 * server, and the style's name.
 */
import { layers, namedFlavor } from '@protomaps/basemaps';

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

/** Whether `name` is a style this server has. */
export function hasStyle(name: string): boolean {
  return Object.hasOwn(STYLES, name);
}

/**
 * The style document `name`, its URLs under `urls.base` carrying `urls.key`.
 * Labels are in English: basemaps' `lang: 'en'` picks `name:en`, then `name` (MapLibre cannot
 * shape Devanagari, so a label in Nepali script would come out as disjoint letters).
 * @throws {RangeError} for a name that is not in `STYLES`
 */
export function mapStyle(name: string, urls: StyleUrls): StyleDocument {
  if (!hasStyle(name)) throw new RangeError(`no style named ${JSON.stringify(name)}; styles: ${Object.keys(STYLES).join(', ')}`);
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
    layers: styleLayers(flavor),
  };
}

// The layers depend only on the flavor: built once each (the basemaps expressions are large).
const layerCache = new Map<string, unknown[]>();
function styleLayers(flavor: string): unknown[] {
  let out = layerCache.get(flavor);
  if (!out) layerCache.set(flavor, (out = layers(SOURCE, namedFlavor(flavor), { lang: 'en' })));
  return out;
}
