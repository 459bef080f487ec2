/**
 * The map over API v1: styles, TileJSON, vector tiles, glyph ranges and sprites. Every route is
 * keyed like the search routes (401, 403, 429 envelopes), but answers with the raw resource
 * (style JSON, MVT, PBF, PNG) instead of an envelope; its refusals are envelopes.
 */
import { createHash } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Context, Hono } from 'hono';
import { isTile, MAX_TILE_ZOOM, type TileArchive } from '../map/archive.js';
import { ASSETS_DIR } from '../map/assets.js';
import { encodeGlyphs, fontFor, parseRange } from '../map/glyphs.js';
import { ATTRIBUTION, hasStyle, mapStyle, STYLES } from '../map/style.js';
import { HttpError, quote } from './http-error.js';

/** Options of the map routes (`createApp({ map })`). */
export interface MapOptions {
  /** The vector tiles (`TileArchive.open()`); without them, styles and tiles answer 404. */
  tiles?: TileArchive;
  /**
   * The server's public origin and path prefix as clients reach it, e.g. behind a proxy
   * (`https://maps.example.com`); the style's URLs start with it. Default: the request's own origin.
   */
  publicUrl?: string;
  /** Where the built glyphs and sprites are (default: `dist/assets/` of this package). */
  assets?: string;
}

/** Checks a request's key, origin and quota, throwing the 401/403/429 `HttpError`. */
export type Gate = (c: Context<any>, search: URLSearchParams) => Promise<void>;

/** The `--tiles` flag a style or tile request needs, for the 404 message. */
const NO_TILES = 'this server has no vector tiles: start it with --tiles FILE.pmtiles (nepal-places tiles IN.osm.pbf -o FILE.pmtiles writes one)';

const TILE_CACHE = 'private, max-age=3600';
const ASSET_CACHE = 'private, max-age=86400';
const STYLE_CACHE = 'private, max-age=300';

/**
 * Adds the map routes under `basePath` to `app`:
 * `GET /styles/{name}`, `/tiles.json`, `/tiles/{z}/{x}/{y}.mvt`, `/fonts/{fontstack}/{start}-{end}.pbf`
 * and `/sprites/{name}[@2x].{json,png}`.
 */
export function mapRoutes(app: Hono<any>, basePath: string, gate: Gate, options: MapOptions = {}): void {
  const { tiles, assets = ASSETS_DIR } = options;
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(publicUrl)) {
    throw new TypeError(`publicUrl must be an http(s) URL without query or fragment, got ${quote(publicUrl)}`);
  }
  const files = new FileCache(assets);

  // The API root as the client reaches it.
  const apiBase = (c: Context) => `${publicUrl ?? new URL(c.req.url).origin}${basePath}`;

  // A keyed GET: the gate, then the handler with the request's key.
  const get = (path: string, handle: (c: Context, key: string, params: Record<string, string>) => Promise<Response>) => {
    app.get(path, async (c) => {
      const search = queryOf(c.req.url);
      await gate(c, search);
      return handle(c, search.get('key')!, c.req.param() as Record<string, string>);
    });
    app.all(path, (c) => {
      throw new HttpError(405, `Method not allowed: ${quote(c.req.method)} on ${path}; allowed: GET, HEAD`, { Allow: 'GET, HEAD' });
    });
  };

  get(`${basePath}/styles/:name`, async (c, key, { name = '' }) => {
    if (!hasStyle(name)) {
      throw new HttpError(404, `Not found: no style ${quote(name)}; styles: ${Object.keys(STYLES).join(', ')}`);
    }
    const archive = need(tiles);
    const style = mapStyle(name, { base: apiBase(c), key });
    const { header } = archive;
    style.center = [header.centerLon, header.centerLat];
    style.zoom = header.centerZoom;
    return json(c, style, STYLE_CACHE);
  });

  get(`${basePath}/tiles.json`, async (c, key) => {
    const archive = need(tiles);
    const { header, metadata } = archive;
    const tileJson: Record<string, unknown> = {
      tilejson: '3.0.0',
      name: typeof metadata.name === 'string' ? metadata.name : 'nepal-places',
      attribution: ATTRIBUTION,
      scheme: 'xyz',
      tiles: [`${apiBase(c)}/tiles/{z}/{x}/{y}.mvt?key=${encodeURIComponent(key)}`],
      vector_layers: archive.vectorLayers,
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

  get(`${basePath}/tiles/:z/:x/:file`, async (c, _key, { z: zs = '', x: xs = '', file = '' }) => {
    const ys = /^(\d{1,8})\.mvt$/.exec(file)?.[1];
    const [z, x, y] = [zs, xs, ys].map((s) => (s !== undefined && /^\d{1,8}$/.test(s) ? Number(s) : NaN)) as [number, number, number];
    if (ys === undefined) throw new HttpError(404, `Not found: ${quote(file)} is not a tile; tiles are /tiles/{z}/{x}/{y}.mvt`);
    if (!isTile(z, x, y)) {
      throw new HttpError(400, `Bad tile ${quote(`${zs}/${xs}/${ys}`)}: z must be an integer from 0 to ${MAX_TILE_ZOOM}, x and y integers from 0 to 2^z − 1`);
    }
    const tile = await need(tiles).tile(z, x, y);
    c.header('Cache-Control', TILE_CACHE);
    if (!tile) {
      // Outside the data: nothing to draw, and MapLibre takes a 204 as an empty tile.
      return c.body(null, 204);
    }
    c.header('Content-Type', 'application/vnd.mapbox-vector-tile');
    c.header('Vary', 'Origin, Accept-Encoding');
    if (!acceptsGzip(c.req.header('Accept-Encoding'))) return sendTagged(c, gunzipSync(tile.data), tile.etag);
    c.header('Content-Encoding', 'gzip');
    return sendTagged(c, tile.data, tile.etag);
  });

  get(`${basePath}/fonts/:fontstack/:range`, async (c, _key, { fontstack = '', range = '' }) => {
    const m = /^(\d{1,5})-(\d{1,5})\.pbf$/.exec(range);
    const start = m ? parseRange(m[1]!, m[2]!) : undefined;
    if (start === undefined) {
      throw new HttpError(404, `Not found: ${quote(range)} is not a glyph range; ranges are {start}-{start+255}.pbf, start a multiple of 256 up to 65280`);
    }
    if (fontstack.length > 200 || !/^[\p{L}\p{N} ,._-]+$/u.test(fontstack)) {
      throw new HttpError(400, `Bad fontstack ${quote(fontstack)}: font names separated by commas`);
    }
    const font = fontFor(fontstack);
    const file = await files.get(join('fonts', font, `${start}-${start + 255}.pbf`), `the glyphs of ${font}`);
    c.header('Content-Type', 'application/x-protobuf');
    c.header('Cache-Control', ASSET_CACHE);
    // A range the font has no glyph in is an empty one, which MapLibre draws nothing for.
    const found = file ?? files.empty(font, start);
    return sendTagged(c, found.data, found.etag);
  });

  get(`${basePath}/sprites/:file`, async (c, _key, { file = '' }) => {
    const m = /^([a-z0-9_-]{1,40})(@2x)?\.(json|png)$/.exec(file);
    const sprites = new Set(Object.values(STYLES).map((s) => s.sprite));
    if (!m || !sprites.has(m[1]!)) {
      throw new HttpError(404, `Not found: no sprite ${quote(file)}; sprites: ${[...sprites].map((s) => `${s}[@2x].{json,png}`).join(', ')}`);
    }
    const found = await files.get(join('sprites', file), 'the sprites');
    if (!found) throw new HttpError(503, `Service unavailable: the sprite ${file} is not built; run npm run assets`);
    c.header('Content-Type', m[3] === 'png' ? 'image/png' : 'application/json');
    c.header('Cache-Control', ASSET_CACHE);
    return sendTagged(c, found.data, found.etag);
  });
}

function need(tiles: TileArchive | undefined): TileArchive {
  if (!tiles) throw new HttpError(404, `Not found: ${NO_TILES}`);
  return tiles;
}

function json(c: Context, value: unknown, cache: string): Response {
  const body = JSON.stringify(value);
  c.header('Content-Type', 'application/json');
  c.header('Cache-Control', cache);
  return sendTagged(c, body, `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`);
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

/** The query string of a request URL, parsed as browsers and `URLSearchParams` do; never throws. */
function queryOf(url: string): URLSearchParams {
  const i = url.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : url.slice(i + 1));
}

/** A built asset's bytes and a strong ETag of them. */
interface Asset {
  data: Uint8Array;
  etag: string;
}

// Built assets read once each: a few dozen small files in all.
class FileCache {
  private readonly files = new Map<string, Promise<Asset | undefined>>();
  private readonly empties = new Map<string, Asset>();
  constructor(readonly dir: string) {}

  /** The file, or undefined when it is not there; throws a 503 when the assets are not built at all. */
  get(path: string, what: string): Promise<Asset | undefined> {
    let found = this.files.get(path);
    if (!found) {
      found = readFile(join(this.dir, path)).then(
        (data) => ({ data, etag: etagOf(data) }),
        async (err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
          // No such file in built assets is a range or sprite we do not have; no assets at all is a broken install.
          if (!(await access(this.dir).then(() => true, () => false))) {
            throw new HttpError(503, `Service unavailable: ${what} are not built; run npm run assets`);
          }
          return undefined;
        },
      );
      this.files.set(path, found);
      // A 503 is not kept: the assets may be built while the server runs.
      found.catch(() => this.files.delete(path));
    }
    return found;
  }

  /** An empty glyph range of `font`. */
  empty(font: string, start: number): Asset {
    const id = `${font}/${start}`;
    let asset = this.empties.get(id);
    if (!asset) {
      const data = encodeGlyphs(font, start, []);
      this.empties.set(id, (asset = { data, etag: etagOf(data) }));
    }
    return asset;
  }
}

function etagOf(data: Uint8Array): string {
  return `"${createHash('sha256').update(data).digest('base64url').slice(0, 16)}"`;
}
