/**
 * The query parameters of API v1, one zod schema per endpoint: each parameter's type, bounds and
 * default (from `src/query/limits.ts`, shared with the engine's own validation) and its
 * description. From these come the parameters' TypeScript types, what `params.ts` accepts and the
 * messages of its 400s (`readParam`), and the parameters of the OpenAPI document
 * (`parameterObject`), so the three cannot disagree.
 *
 * A query string is text: `readParam` reads a parameter's text strictly (plain decimals, whole
 * numbers in digits, `true`/`false` in any case) by its schema's type, then checks it against the
 * schema's bounds with a message that names the parameter and the bound.
 */
import { z } from '@hono/zod-openapi';
import { MAX_QUERY_LENGTH, MAX_POSTINGS } from '../query/search.js';
import { MAX_SCANNED } from '../query/nearby.js';
import { MAX_WORDS } from '../search/words.js';
import { MODES } from '../osm/profile.js';
import { LANGS } from '../osm/name.js';
import { MATRIX_HTTP_MAX } from '../query/matrix.js';
import { maxMinutes } from '../query/isochrone.js';
import { NEARBY_LIMIT, NEARBY_RADIUS, REVERSE_LIMIT, REVERSE_RADIUS, SEARCH_LIMIT } from '../query/limits.js';
import { HttpError, quote } from './http-error.js';
import type { Search } from './query.js';

/** The largest `limit` and `radius` (km) a request may ask for. */
export interface QueryLimits {
  maxLimit: number;
  maxRadius: number;
}

/** What the document and the 400s say of a parameter, beside its schema. */
export interface ParamInfo {
  /** Its description in the OpenAPI document. */
  description: string;
  /** What its 400 adds to `missing` when a required one is absent, e.g. `(the words to search for)`. */
  missing?: string;
  /** The unit its 400 names after a bound, e.g. `km`. */
  unit?: string;
  /** What its 400 calls a blank value: `empty` (default) or `blank`. */
  blank?: 'empty' | 'blank';
  /** An extension of this service, not part of API v1 (`x-extension` in the document). */
  extension?: boolean;
}

/** The `ParamInfo` of each parameter schema. */
export const paramInfo = z.registry<ParamInfo>();

const param = <T extends z.ZodType>(schema: T, info: ParamInfo): T => {
  // what the document says of it: its description, on the parameter and its schema, and the
  // Parameter Object's own fields (`param`), which @hono/zod-openapi's generator reads
  const extra: Record<string, unknown> = {};
  if (info.extension) extra['x-extension'] = true;
  if (schema instanceof z.ZodOptional && schema.unwrap() instanceof z.ZodArray) Object.assign(extra, { style: 'form', explode: true });
  const described = schema.meta({
    ...schema.meta(),
    description: info.description,
    ...(Object.keys(extra).length ? { param: extra } : {}),
  }) as T;
  paramInfo.add(described, info);
  return described;
};

const coordinate = (name: 'lat' | 'lon', description: string) =>
  param(name === 'lat' ? z.number().min(-90).max(90) : z.number().min(-180).max(180), { description });

/** The key parameter: the same on every keyed route. */
const key = param(
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,128}$/)
    .optional(),
  {
    description: 'Your API key. Required, unless given in an `X-API-Key` or `Authorization: Bearer` header (this parameter wins).',
  },
);

/**
 * `lang`: the language of names, addresses and directions (an extension). Without it, the
 * request's `Accept-Language` (its most preferred of `en` and `ne`); without either, the names
 * as mapped and English directions.
 */
const lang = param(z.enum(LANGS).optional(), {
  description:
    '**Extension, not part of API v1**: `en` or `ne`: `name` and `address` (and, on `/directions`, the instructions and their street names) in English or Nepali. ' +
    "A name is the place's `name:en`/`name:ne`, else its `name` where written in that language's script, else a transliteration (the record says `nameTransliterated: true`); " +
    'an address is assembled from its parts in that language, districts and provinces by their official names. ' +
    "Without `lang`, the request's `Accept-Language` decides (its most preferred of `en` and `ne`); without either, the names as mapped (`name` first) and English directions.",
  extension: true,
});

/** `format` and `geometry`: how a route whose records have shapes writes them. */
export const formatParams = {
  format: param(z.enum(['json', 'geojson']).default('json'), {
    description:
      '`json`: the envelope; `geojson`: a GeoJSON FeatureCollection (`application/geo+json`) of the same records, for a map. Errors are envelopes either way.',
  }),
  geometry: param(z.enum(['full', 'centroid']).default('full'), {
    description: "Only with `format=geojson`: `full`, each feature has the record's geometry; `centroid`, a Point at its centroid.",
  }),
};

/**
 * The parameters of `GET /search/nearby`, in the order they are checked. `at` is an extension of
 * this service, not part of API v1: clients of API v1 never send it.
 */
export function nearbySchema(limits: QueryLimits) {
  return z.object({
    key,
    type: param(z.string().min(1), {
      description:
        'A place type (`cafe`, `school`, …; an OSM feature value) or a merged type (`eat`, …). Case-insensitive; an unknown type finds nothing.',
      missing: '(a place type such as cafe, or a merged type such as eat)',
    }),
    lat: coordinate('lat', 'Latitude in degrees (plain decimal).'),
    lon: coordinate('lon', 'Longitude in degrees (plain decimal).'),
    radius: param(z.number().int().min(1).max(limits.maxRadius).default(NEARBY_RADIUS), {
      description: 'Search radius in whole kilometres.',
      unit: 'km',
    }),
    limit: param(z.number().int().min(1).max(limits.maxLimit).default(NEARBY_LIMIT), { description: 'How many places at most.' }),
    sortBy: param(z.boolean().default(false), {
      description: '`true`: nearest first; otherwise best score first. `true`/`false`, any case.',
    }),
    isOpen: param(z.boolean().default(false), {
      description: `\`true\`: only places open now (Nepal Time) by their \`opening_hours\`; of the places in range, the first \`limit\` + ${MAX_SCANNED.toLocaleString('en-US')} in the answer's order are examined, so fewer than \`limit\` may come back when few are open. \`true\`/\`false\`, any case.`,
    }),
    at: param(
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/)
        .optional()
        .meta({
          examples: ['2026-11-21T22:10', '2026-11-21T16:25Z', '2026-11-21T22:10+05:45'],
        }),
      {
        description:
          '**Extension, not part of API v1**: a client of API v1 does not send it, and another API v1 service may refuse it. ' +
          "The instant that `isOpen` and each record's `open` are evaluated at, instead of now: ISO 8601, " +
          "`YYYY-MM-DD[Thh:mm[:ss[.fff]]][Z|±hh:mm]`; without an offset it is Nepal Time (UTC+05:45), whatever the server's " +
          'time zone. Percent-encode a `+` in the offset as `%2B`.',
        extension: true,
      },
    ),
    by: param(z.enum(['distance', 'time']).optional(), {
      description:
        '**Extension, not part of API v1**: `time`: the places reachable within `minutes` by `mode` instead of within `radius` ' +
        '(which is then refused), ranked by travel time (`sortBy=true`) or by score with travel time in place of distance; each ' +
        'record gains `travelTimeInMs` and `travelDistanceInMeters`, and `isOpen` means open when one arrives. Default `distance`.',
      extension: true,
    }),
    mode: param(z.enum(MODES).optional(), {
      description: '**Extension**, with `by=time` only: `foot` (default), `bike`, `car`, … as for `/directions`.',
      extension: true,
    }),
    minutes: param(z.number().int().min(1).max(120).optional(), {
      description: '**Extension**, with `by=time` only: whole minutes, 1 to 120 on foot and 60 by any other mode (default 15).',
      unit: 'minutes',
      extension: true,
    }),
    lang,
    ...formatParams,
  });
}

/** The parameters of `GET /matrix`: the sources and destinations as `directionsSchema`'s points are given. */
export function matrixSchema() {
  const points = (name: string) =>
    param(
      z
        .array(z.string().regex(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/))
        .min(1)
        .max(MATRIX_HTTP_MAX)
        .optional(),
      {
        description: `A ${name} \`lat,lon\`; 1 to ${MATRIX_HTTP_MAX} of them, sent as \`${name}s[]\` (repeated).`,
      },
    );
  return z.object({
    key,
    'sources[]': points('source'),
    'destinations[]': points('destination'),
    mode: param(z.enum(MODES).default('foot'), { description: '`foot` (default), `bike`, `car`, … as for `/directions`.' }),
  });
}

/** The JSON body of `POST /matrix`: GET's arguments, the points as `[lat, lon]` pairs or `"lat,lon"` strings. */
export function matrixBody() {
  const point = z.union([
    z
      .tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)])
      .meta({ description: '`[lat, lon]` in degrees (note: not GeoJSON order).', minItems: 2, maxItems: 2 }),
    z
      .string()
      .regex(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/)
      .meta({ description: '`"lat,lon"`.' }),
  ]);
  const points = (name: string) =>
    z
      .array(point)
      .min(1)
      .max(MATRIX_HTTP_MAX)
      .meta({ description: `The ${name}: 1 to ${MATRIX_HTTP_MAX} of them.` });
  return z
    .object({
      sources: points('sources'),
      destinations: points('destinations'),
      mode: z.enum(MODES).default('foot').meta({ description: '`foot` (default), `bike`, `car`, … as for `/directions`.' }),
    })
    .strict()
    .meta({ id: 'MatrixBody' });
}

/** The largest `minutes` of each mode, in words: `120 on foot, 60 by bike, …`. */
export function capsText(): string {
  const by = (m: string) => (m === 'foot' ? 'on foot' : `by ${m}`);
  return MODES.map((m) => `${maxMinutes(m)} ${by(m)}`).join(', ');
}

/** The parameters of `GET /isochrone`. */
export function isochroneSchema() {
  return z.object({
    key,
    lat: coordinate('lat', 'Latitude of the start in degrees (plain decimal).'),
    lon: coordinate('lon', 'Longitude of the start in degrees (plain decimal).'),
    mode: param(z.enum(MODES).default('foot'), { description: '`foot` (default), `bike`, `car`, … as for `/directions`.' }),
    minutes: param(z.string().regex(/^\d+(,\d+){0,3}$/), {
      description: `The contours, whole minutes separated by commas (\`5,10,15\`): 1 to 4 of them, each from 1 to ${capsText()}.`,
      missing: '(whole minutes such as 5,10,15)',
    }),
  });
}

/** The parameters of `GET /places`. */
export function placeSchema() {
  return z.object({
    key,
    placeId: param(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), {
      description: 'The `placeId` of a record: `osmId * 4 + kind` (kind 0 node, 1 way, 2 relation), plain digits.',
      missing: '(the placeId of a record, osmId * 4 + kind)',
    }),
    lang,
    ...formatParams,
  });
}

/** The parameters of `GET /types`: the key alone. */
export function typesSchema() {
  return z.object({ key });
}

/** The parameters of `GET /search`. */
export function searchSchema(limits: QueryLimits) {
  return z.object({
    key,
    q: param(z.string().min(1).max(MAX_QUERY_LENGTH), {
      description: `What the user typed: words, the last one possibly unfinished. Not blank; at most ${MAX_QUERY_LENGTH} characters and ${MAX_WORDS} different words (a repeated word counts once), else 400. At most ${MAX_POSTINGS.toLocaleString('en-US')} matches of its words in names are scored: a broader query (one or two letters at country scale) ranks each word's rarest completions.`,
      missing: '(the words to search for)',
      blank: 'blank',
    }),
    limit: param(z.number().int().min(1).max(limits.maxLimit).default(SEARCH_LIMIT), { description: 'How many suggestions at most.' }),
    lat: param(z.number().min(-90).max(90).optional(), {
      description: 'With `lon`: nearer places rank first among equally good matches (a bias, not a filter).',
    }),
    lon: param(z.number().min(-180).max(180).optional(), { description: 'With `lat`: see `lat`.' }),
    radius: param(z.number().int().min(1).max(limits.maxRadius).optional(), {
      description: 'With `lat`/`lon`: only places whose centroid lies within this many whole kilometres.',
      unit: 'km',
    }),
    type: param(z.string().min(1).optional(), {
      description: 'Only places of this type (`cafe`, `residential`, `neighbourhood`, …) or merged type (`eat`, …). Case-insensitive.',
    }),
    lang,
  });
}

/** The parameters of `GET /reverse`. */
export function reverseSchema(limits: QueryLimits) {
  return z.object({
    key,
    lat: coordinate('lat', 'Latitude in degrees (plain decimal).'),
    lon: coordinate('lon', 'Longitude in degrees (plain decimal).'),
    radius: param(z.number().gt(0).max(limits.maxRadius).default(REVERSE_RADIUS), {
      description: 'How far to look, in km; fractions are fine.',
      unit: 'km',
    }),
    limit: param(z.number().int().min(1).max(limits.maxLimit).default(REVERSE_LIMIT), { description: 'How many places at most.' }),
    lang,
    ...formatParams,
  });
}

/** The parameters of `GET /directions` (`points[]` and `points` are the same list, as clients send it). */
export function directionsSchema() {
  return z.object({
    key,
    'points[]': param(
      z
        .array(z.string().regex(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/))
        .min(2)
        .max(25)
        .optional(),
      {
        description:
          'A point `lat,lon` to pass, in order; 2 to 25 of them, at most 2,000 km apart in all (straight lines from point to point). Sent as `points[]` (the Baato JS client, axios), `points%5B%5D` (the Java client) or repeated `points`.',
      },
    ),
    points: param(z.array(z.string()).min(2).max(25).optional(), {
      description: 'The same points as `points[]`, for clients that repeat a plain name (not both).',
    }),
    mode: param(z.enum([...MODES, 'motorcycle']).default('foot'), {
      description:
        '`foot` (shortest walk, 5 km/h), `bike` (15 km/h; walked where only walking is allowed), `car` or `motorbike` (fastest, by road class, built-up areas, `maxspeed` and national limits); `motorcycle` is `motorbike`.',
    }),
    instructions: param(z.boolean().default(false), {
      description: "`true`: turn-by-turn `instructionList` (GraphHopper's shape); otherwise it is null.",
    }),
    alternatives: param(z.boolean().default(false), {
      description: '`true`: up to two alternatives after the best route (exactly two points only).',
    }),
    format: param(z.enum(['json', 'geojson']).default('json'), {
      description:
        '`json` (default): the envelope of routes; `geojson`: a GeoJSON FeatureCollection (`application/geo+json`), one LineString Feature per route, best first.',
    }),
    lang,
  });
}

/** The parameter names of an endpoint's schema, in order. */
export function paramNames(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape);
}

// A plain decimal, optionally with an exponent. Stricter than Number(), which also takes
// '', ' 1', '0x1f', 'Infinity' and '1_0'-like oddities we do not want to guess at.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DIGITS = /^\d+$/;
const BOOLEAN = /^(?:true|false)$/i;

/** A 400 naming the parameter. */
export function bad(param: string, message: string): HttpError {
  return new HttpError(400, `${param}: ${message}`);
}

/** The schema under its `.optional()` and `.default()`, and its default if any. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean; fallback: unknown } {
  let inner = schema;
  let optional = false;
  let fallback: unknown;
  for (;;) {
    if (inner instanceof z.ZodDefault) {
      fallback = inner.def.defaultValue;
      optional = true;
      inner = inner.def.innerType as z.ZodType;
    } else if (inner instanceof z.ZodOptional) {
      optional = true;
      inner = inner.def.innerType as z.ZodType;
    } else return { inner, optional, fallback };
  }
}

/** A parameter as `readParam` reads it: its schema without wrappers, and what it says of it. */
interface Field {
  inner: z.ZodType;
  /** How its text is read (zod's own `instanceof` checks its traits: once per schema, not per request). */
  kind: 'number' | 'boolean' | 'enum' | 'string' | 'other';
  optional: boolean;
  info: ParamInfo;
  /** A number's bounds, read from its checks. */
  bounds?: Bounds;
}

/** The bounds of a number parameter: `above` is an exclusive lower bound (`gt()`), if any. */
interface Bounds {
  min: number;
  max: number;
  int: boolean;
  above: number | undefined;
}

function boundsOf(schema: z.ZodNumber): Bounds {
  const min = schema.minValue ?? -Infinity;
  // a lower bound the number must be above (`gt(0)`), not at or above
  const exclusive = schema.def.checks?.some((c) => {
    const def = c._zod.def as { check: string; inclusive?: boolean };
    return def.check === 'greater_than' && !def.inclusive;
  });
  return { min, max: schema.maxValue ?? Infinity, int: schema.isInt, above: exclusive ? min : undefined };
}

// Each endpoint's parameters unwrapped once (a schema is made once per app, and read per request).
const fields = new WeakMap<z.ZodObject, { names: string[]; byName: Map<string, Field> }>();

function compiled(schema: z.ZodObject): { names: string[]; byName: Map<string, Field> } {
  let c = fields.get(schema);
  if (!c) {
    const byName = new Map<string, Field>();
    for (const [name, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
      const { inner, optional } = unwrap(field);
      const bounds = inner instanceof z.ZodNumber ? boundsOf(inner) : undefined;
      const kind = bounds
        ? 'number'
        : inner instanceof z.ZodBoolean
          ? 'boolean'
          : inner instanceof z.ZodEnum
            ? 'enum'
            : inner instanceof z.ZodString
              ? 'string'
              : 'other';
      byName.set(name, { inner, kind, optional, info: paramInfo.get(field) ?? { description: '' }, bounds });
    }
    fields.set(schema, (c = { names: [...byName.keys()], byName }));
  }
  return c;
}

function fieldOf(schema: z.ZodObject, name: string): Field {
  const field = compiled(schema).byName.get(name);
  if (!field) throw new TypeError(`readParam: no parameter ${name}`);
  return field;
}

/** The default of a parameter's schema, or undefined. */
export function defaultOf(schema: z.ZodType): unknown {
  return unwrap(schema).fallback;
}

/**
 * Reads parameter `name` of `schema` from the query: undefined when absent and optional (its
 * default is the caller's to apply), else its value, typed and within its bounds.
 * @throws {HttpError} 400, naming the parameter and what it must be
 */
export function readParam<S extends z.ZodObject, K extends keyof S['shape'] & string>(
  search: Search,
  schema: S,
  name: K,
): z.output<S['shape'][K]> | undefined;
export function readParam(search: Search, schema: z.ZodObject, name: string): unknown {
  const { inner, kind, optional, info, bounds } = fieldOf(schema, name);
  const s = search.get(name);
  if (s === null) {
    if (optional) return undefined;
    throw bad(name, info.missing ? `missing ${info.missing}` : 'missing');
  }
  if (bounds) return number(name, s, bounds, info);
  if (kind === 'boolean') {
    if (!BOOLEAN.test(s)) throw bad(name, `must be true or false, got ${quote(s)}`);
    return s.toLowerCase() === 'true';
  }
  if (kind === 'enum') {
    const values = (inner as z.ZodEnum).options as string[];
    if (!values.includes(s)) throw bad(name, `must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}, got ${quote(s)}`);
    return s;
  }
  if (kind === 'string') {
    const { minLength, maxLength } = inner as z.ZodString;
    if (minLength && s.trim() === '') throw bad(name, `must not be ${info.blank ?? 'empty'}`);
    if (maxLength !== null && s.length > maxLength) throw bad(name, `must be at most ${maxLength} characters, got ${s.length}`);
    return s;
  }
  throw new TypeError(`readParam: ${name} is not a scalar parameter`);
}

// A number parameter: whole numbers in digits, others in plain decimal notation.
function number(name: string, s: string, bounds: Bounds, info: ParamInfo): number {
  const { min, max, above } = bounds;
  const unit = info.unit ? ` ${info.unit}` : '';
  if (bounds.int) {
    if (min === 0) {
      // an id: any whole number a double holds exactly
      const n = DIGITS.test(s) && s.length <= 16 ? Number(s) : NaN;
      if (!(n >= min && n <= max)) throw bad(name, `must be a whole number from ${min} to ${max}, got ${quote(s)}`);
      return n;
    }
    if (!DIGITS.test(s)) {
      const hint = DECIMAL.test(s) && Number.isFinite(Number(s)) && Number(s) > 0 ? ' (only integers are supported)' : '';
      throw bad(name, `must be a whole number from ${min} to ${max}${hint}, got ${quote(s)}`);
    }
    const n = Number(s);
    if (n < min) throw bad(name, `must be at least ${min}, got ${quote(s)}`);
    if (n > max) throw bad(name, `must be at most ${max}${unit} (the maximum), got ${quote(s)}`);
    return n;
  }
  const n = DECIMAL.test(s) ? Number(s) : NaN;
  if (above !== undefined) {
    if (!(n > above && n <= max)) throw bad(name, `must be a number of${unit} above ${above} and at most ${max}, got ${quote(s)}`);
  } else if (!(n >= min && n <= max)) throw bad(name, `must be a number from ${min} to ${max}, got ${quote(s)}`);
  return n;
}

/**
 * Refuses a parameter the schema does not have (a misspelt one would otherwise be silently
 * ignored) and one given more than once (but `repeatable` ones).
 * @throws {HttpError} 400, naming the parameter
 */
export function onlyKnown(search: Search, schema: z.ZodObject, repeatable: readonly string[] = []): void {
  const allowed = compiled(schema).names;
  const seen: string[] = []; // a dozen names at most: a Set costs more
  for (const name of search.keys()) {
    if (!allowed.includes(name)) throw bad(name || '(empty name)', `unknown parameter; expected one of ${allowed.join(', ')}`);
    if (seen.includes(name) && !repeatable.includes(name)) throw bad(name, 'given more than once');
    seen.push(name);
  }
}

/** A parameter of an endpoint's schema as an OpenAPI 3.1 Parameter Object (in the query). */
export function parameterObject(schema: z.ZodObject, name: string): Record<string, unknown> {
  const field = schema.shape[name] as z.ZodType;
  const info = paramInfo.get(field)!;
  const { optional } = unwrap(field);
  const { $schema: _, ...json } = z.toJSONSchema(field, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  const out: Record<string, unknown> = { name, in: 'query' };
  if (!optional) out.required = true;
  out.description = info.description;
  out.schema = json;
  if (json.type === 'array') Object.assign(out, { style: 'form', explode: true });
  if (info.extension) out['x-extension'] = true;
  return out;
}
