/**
 * The map over API v1: styles, TileJSON, vector tiles, glyph ranges and sprites. Every route is
 * keyed like the search routes (401, 403, 429 envelopes), but answers with the raw resource
 * (style JSON, MVT, PBF, PNG) instead of an envelope; its refusals are envelopes.
 *
 * Web APIs only, like the rest of the app: the archive and the built assets are read by what the
 * host passes in (`TileArchive` and `fileAssets()` on Node, see `src/map/`).
 */
import type { Context } from 'hono';
import type { Api, AppEnv } from '../api.js';
import { HttpError, quote } from '../http-error.js';
import type { Search } from '../query.js';
import { encodeGlyphs, fontFor, parseRange } from '../../map/glyphs.js';
import { ATTRIBUTION, hasStyle, isLang, LANGS, mapStyle, STYLES } from '../../map/style.js';
import { LAYER_FIELDS } from '../../tiles/schema.js';
import { gunzipLimited, MAX_TILE_BYTES, MAX_TILE_ZOOM, TileDataError, tileProblem } from '../../map/zxy.js';
import type { MapAssets } from '../../map/source.js';

/** The vector tiles the map routes serve (a `TileArchive` on Node). */
export interface MapTiles {
  header: {
    minZoom: number;
    maxZoom: number;
    minLon: number;
    minLat: number;
    maxLon: number;
    maxLat: number;
    centerLon: number;
    centerLat: number;
    centerZoom: number;
  };
  vectorLayers: unknown[];
  metadata: Record<string, unknown>;
  /** Largest tile served, inflated, in bytes (default `MAX_TILE_BYTES`): the limit a plain answer is inflated to. */
  maxTileBytes?: number;
  /**
   * Tile z/x/y gzip-compressed with a strong ETag, or undefined where there is none; rejects with
   * a `TileDataError` for a tile that cannot be served (answered 502).
   */
  tile(z: number, x: number, y: number): Promise<{ data: Uint8Array; etag: string } | undefined>;
}

/** Options of the map routes (`createApp({ map })`). */
export interface MapOptions {
  /** The vector tiles (`TileArchive.open()`); without them, styles and tiles answer 404. */
  tiles?: MapTiles;
  /** The glyphs and sprites (`fileAssets()`); without them, fonts and sprites answer 404. */
  assets?: MapAssets;
  /**
   * The server's public origin and path prefix as clients reach it, e.g. behind a proxy
   * (`https://maps.example.com`); the style's URLs start with it. Default: the request's own.
   */
  publicUrl?: string;
}

/** The `--tiles` flag a style or tile request needs, for the 404 message. */
const NO_TILES =
  'this server has no vector tiles: start it with --tiles FILE.pmtiles (nepal-places tiles IN.osm.pbf -o FILE.pmtiles writes one)';
const NO_ASSETS = "this server has no map fonts and sprites (createApp's map.assets; npm run assets builds them)";

const TILE_CACHE = 'private, max-age=3600';
const ASSET_CACHE = 'private, max-age=86400';
const STYLE_CACHE = 'private, max-age=300';

/**
 * The map routes: `GET /styles/{name}`, `/tiles.json`, `/tiles/{z}/{x}/{y}.mvt`,
 * `/fonts/{fontstack}/{start}-{end}.pbf` and `/sprites/{name}[@2x].{json,png}`.
 */
export function mapRoutes(api: Api, options: MapOptions = {}): void {
  const { tiles, assets } = options;
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(publicUrl)) {
    throw new TypeError(`publicUrl must be an http(s) URL without query or fragment, got ${quote(publicUrl)}`);
  }
  const files = new AssetCache(assets);

  // The API root as the client reaches it: the request's path up to the route's own part, so
  // that it holds under a mount too.
  const apiBase = (c: Context, own: string) => {
    const url = new URL(c.req.url);
    const base = url.pathname.slice(0, url.pathname.lastIndexOf(own));
    return publicUrl !== undefined ? `${publicUrl}${base}` : `${url.origin}${base}`;
  };
  const keyOf = (search: Search) => `key=${encodeURIComponent(search.get('key') ?? '')}`;

  api.keyedResource('/styles/:name', async (c, search) => {
    const name = c.req.param('name') ?? '';
    if (!hasStyle(name)) {
      throw new HttpError(404, `Not found: no style ${quote(name)}; styles: ${Object.keys(STYLES).join(', ')}`);
    }
    const lang = search.get('lang') ?? 'en';
    if (!isLang(lang)) throw new HttpError(400, `Bad lang ${quote(lang)}: labels are in ${LANGS.join(' (the default) or ')}`);
    const archive = need(tiles);
    const style = mapStyle(name, { base: apiBase(c, '/styles/'), key: search.get('key') ?? '' }, { lang });
    const { header } = archive;
    style.center = [header.centerLon, header.centerLat];
    style.zoom = header.centerZoom;
    return json(c, style, STYLE_CACHE);
  });

  api.keyedResource('/tiles.json', async (c, search) => {
    const archive = need(tiles);
    const { header, metadata } = archive;
    const tileJson: Record<string, unknown> = {
      tilejson: '3.0.0',
      name: typeof metadata.name === 'string' ? metadata.name : 'nepal-places',
      attribution: ATTRIBUTION,
      scheme: 'xyz',
      tiles: [`${apiBase(c, '/tiles.json')}/tiles/{z}/{x}/{y}.mvt?${keyOf(search)}`],
      vector_layers: archive.vectorLayers.map(withFields),
      minzoom: header.minZoom,
      maxzoom: header.maxZoom,
      bounds: [header.minLon, header.minLat, header.maxLon, header.maxLat],
      center: [header.centerLon, header.centerLat, header.centerZoom],
    };
    for (const field of ['description', 'version'] as const) {
      if (typeof metadata[field] === 'string') tileJson[field] = metadata[field];
    }
    return json(c, tileJson, STYLE_CACHE);
  });

  api.keyedResource('/tiles/:z/:x/:file', async (c) => {
    const { z: zs = '', x: xs = '', file = '' } = c.req.param() as Record<string, string>;
    const ys = /^(.*)\.mvt$/s.exec(file)?.[1];
    if (ys === undefined) throw new HttpError(404, `Not found: ${quote(file)} is not a tile; tiles are /tiles/{z}/{x}/{y}.mvt`);
    const archive = need(tiles);
    const { minZoom, maxZoom } = archive.header;
    const problem = tileProblem(zs, xs, ys, { minZoom, maxZoom: Math.min(maxZoom, MAX_TILE_ZOOM) });
    if (problem !== undefined) throw new HttpError(400, `Bad tile ${quote(`${zs}/${xs}/${ys}`)}: ${problem}`);
    const [z, x, y] = [Number(zs), Number(xs), Number(ys)];
    try {
      const tile = await archive.tile(z, x, y);
      c.header('Cache-Control', TILE_CACHE);
      // Outside the data: nothing to draw, and MapLibre takes a 204 as an empty tile.
      if (!tile) return c.body(null, 204);
      c.header('Content-Type', 'application/vnd.mapbox-vector-tile');
      c.header('Vary', 'Origin, Accept-Encoding');
      if (!acceptsGzip(c.req.header('Accept-Encoding'))) {
        return sendTagged(c, await gunzipLimited(tile.data, archive.maxTileBytes ?? MAX_TILE_BYTES, `${z}/${x}/${y}`), tile.etag);
      }
      c.header('Content-Encoding', 'gzip');
      return sendTagged(c, tile.data, tile.etag);
    } catch (err) {
      // The request is good and the server is up: what it read from its archive is not a tile
      // it can serve, as a gateway's upstream can answer garbage (502, not the 500 of a fault of
      // its own, and not a 4xx: the client can do nothing about it). Not cached.
      if (!(err instanceof TileDataError)) throw err;
      throw new HttpError(
        502,
        `Bad gateway: tile ${err.tile} of this server's archive cannot be served: ${err.reason}; the archive is damaged or was not built for serving`,
      );
    }
  });

  api.keyedResource('/fonts/:fontstack/:range', async (c) => {
    const { fontstack = '', range = '' } = c.req.param() as Record<string, string>;
    const m = /^(\d{1,5})-(\d{1,5})\.pbf$/.exec(range);
    const start = m ? parseRange(m[1]!, m[2]!) : undefined;
    if (start === undefined) {
      throw new HttpError(
        404,
        `Not found: ${quote(range)} is not a glyph range; ranges are {start}-{start+255}.pbf, start a multiple of 256 up to 65280`,
      );
    }
    if (fontstack.length > 200 || !/^[\p{L}\p{N} ,._-]+$/u.test(fontstack)) {
      throw new HttpError(400, `Bad fontstack ${quote(fontstack)}: font names separated by commas`);
    }
    const font = fontFor(fontstack);
    // A range the font has no glyph in is an empty one, which MapLibre draws nothing for.
    const found = (await files.get(`fonts/${font}/${start}-${start + 255}.pbf`)) ?? (await files.empty(font, start));
    c.header('Content-Type', 'application/x-protobuf');
    c.header('Cache-Control', ASSET_CACHE);
    return sendTagged(c, found.data, found.etag);
  });

  api.keyedResource('/sprites/:file', async (c) => {
    const file = c.req.param('file') ?? '';
    const m = /^([a-z0-9_-]{1,40})(@2x)?\.(json|png)$/.exec(file);
    const sprites = new Set(Object.values(STYLES).map((s) => s.sprite));
    if (!m || !sprites.has(m[1]!)) {
      throw new HttpError(
        404,
        `Not found: no sprite ${quote(file)}; sprites: ${[...sprites].map((s) => `${s}[@2x].{json,png}`).join(', ')}`,
      );
    }
    const found = await files.get(`sprites/${file}`);
    if (!found) throw new HttpError(503, `Service unavailable: the sprite ${file} is not built; run npm run assets`);
    c.header('Content-Type', m[3] === 'png' ? 'image/png' : 'application/json');
    c.header('Cache-Control', ASSET_CACHE);
    return sendTagged(c, found.data, found.etag);
  });
}

// A layer as TileJSON lists it: one of the Protomaps layers whose metadata names no fields (an
// archive of `nepal-places tiles` before it wrote them) gets those the schema writes.
function withFields(layer: unknown): unknown {
  if (!layer || typeof layer !== 'object') return layer;
  const { id, fields } = layer as { id?: unknown; fields?: unknown };
  const known = typeof id === 'string' && Object.hasOwn(LAYER_FIELDS, id) ? LAYER_FIELDS[id as keyof typeof LAYER_FIELDS] : undefined;
  const named = fields !== null && typeof fields === 'object' && Object.keys(fields).length > 0;
  return known && !named ? { ...layer, fields: { ...known } } : layer;
}

function need(tiles: MapTiles | undefined): MapTiles {
  if (!tiles) throw new HttpError(404, `Not found: ${NO_TILES}`);
  return tiles;
}

async function json(c: Context<AppEnv>, value: unknown, cache: string): Promise<Response> {
  const body = JSON.stringify(value);
  c.header('Content-Type', 'application/json');
  c.header('Cache-Control', cache);
  return sendTagged(c, body, await etagOf(new TextEncoder().encode(body)));
}

// The body with its ETag, or 304 when the client's If-None-Match already names it.
function sendTagged(c: Context, body: Uint8Array | string, etag: string): Response {
  c.header('ETag', etag);
  const match = c.req.header('If-None-Match');
  if (match !== undefined && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
    return c.body(null, 304);
  }
  return c.body(typeof body === 'string' ? body : (body as Uint8Array<ArrayBuffer>), 200);
}

/** Whether an Accept-Encoding header allows gzip (absent: any encoding is acceptable, RFC 9110). */
function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return true;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return q === undefined || Number(q) > 0;
  }
  return false;
}

async function etagOf(data: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
  return `"${btoa(String.fromCharCode(...hash.subarray(0, 12)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')}"`;
}

/** A built asset's bytes and a strong ETag of them. */
interface Asset {
  data: Uint8Array;
  etag: string;
}

// Built assets read once each: a few dozen small files in all (fontstacks map to three fonts).
class AssetCache {
  private readonly files = new Map<string, Promise<Asset | undefined>>();
  private readonly empties = new Map<string, Promise<Asset>>();
  constructor(readonly assets: MapAssets | undefined) {}

  /** The file, or undefined when there is no such file; a 404 when the server has no assets. */
  get(path: string): Promise<Asset | undefined> {
    const { assets } = this;
    if (!assets) return Promise.reject(new HttpError(404, `Not found: ${NO_ASSETS}`));
    let found = this.files.get(path);
    if (!found) {
      found = assets.get(path).then(async (data) => (data ? { data, etag: await etagOf(data) } : undefined));
      this.files.set(path, found);
      // A failure is not kept: the assets may be built while the server runs.
      found.catch(() => this.files.delete(path));
    }
    return found;
  }

  /** An empty glyph range of `font`. */
  empty(font: string, start: number): Promise<Asset> {
    const id = `${font}/${start}`;
    let asset = this.empties.get(id);
    if (!asset) {
      const data = encodeGlyphs(font, start, []);
      this.empties.set(id, (asset = etagOf(data).then((etag) => ({ data, etag }))));
    }
    return asset;
  }
}
