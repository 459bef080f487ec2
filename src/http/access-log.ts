import { queryParts, rawQuery, type QueryPart } from './query.js';

/** The longest path (with query) an access-log line shows; longer ones are cut with `…`. */
const MAX_PATH = 300;

/**
 * The path and query of a request URL as an access log may show it: without any parameter the
 * app reads as `key` (the same parse as the app's, see `queryParts`: `??key=`, `k%65y=` and
 * repeated keys are all dropped), nor any part that looks like one once decoded: its `name=value`
 * holds `key` in any case, not followed by a letter, and then an `=` (`key[]=`, `key%20=`,
 * `key%00=`, `api_key=`, `type=x;key=…`, `#key=…`). Those are not read as a key, but most likely
 * hold one. Cut short.
 */
export function logPath(url: string): string {
  const scheme = url.indexOf('://');
  const start = scheme < 0 ? 0 : url.indexOf('/', scheme + 3);
  return logTarget(start < 0 ? '/' : url.slice(start));
}

/** A request target (path and query, as on the request line) as an access log may show it. */
export function logTarget(target: string): string {
  const q = target.indexOf('?');
  let out = target;
  if (q >= 0) {
    const raw = rawQuery(target);
    const lead = raw.startsWith('?') ? '?' : '';
    // Without `%` or `+` a query reads as written (the usual case): its parts need no decoding.
    const kept = PLAIN.test(raw) ? plainKept(raw, lead.length) : decodedKept(raw);
    // `?key=…&?x` must not log as `??x`, which reads as `x`: an empty part keeps the `?` a name.
    out = target.slice(0, q) + (kept === undefined ? '' : `?${lead}${!lead && kept.startsWith('?') ? '&' : ''}${kept}`);
  }
  return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH)}…` : out;
}

/**
 * The parts of a query without `%` or `+` (from `at`, past a leading `?`) that hold no key,
 * joined with `&`; undefined when none is left. Cut with `indexOf`: splitting, filtering and
 * joining arrays cost a log line most of its time.
 */
function plainKept(raw: string, at: number): string | undefined {
  let kept: string | undefined;
  for (;;) {
    let end = raw.indexOf('&', at);
    if (end < 0) end = raw.length;
    const text = raw.slice(at, end);
    if (!plainHoldsKey(text)) kept = kept === undefined ? text : `${kept}&${text}`;
    if (end === raw.length) return kept;
    at = end + 1;
  }
}

/** `plainKept` of any query: its parts read as URLSearchParams reads them. */
function decodedKept(raw: string): string | undefined {
  const kept = queryParts(raw).parts.filter((p) => !holdsKey(p));
  return kept.length ? kept.map((p) => p.text).join('&') : undefined;
}

function holdsKey(p: QueryPart): boolean {
  return (/key/i.test(p.name) || /key/i.test(p.value)) && KEYLIKE.test(`${p.name}=${p.value}`);
}

// A key given as if it were one: `key` in any case, not followed by a letter (`keys=`,
// `keyboard=` are other words), then an `=` (the one after the name, at the latest).
const KEYLIKE = /key(?![a-z])[^=]*=/i;

// A query with nothing to decode.
const PLAIN = /^[^%+]*$/;

/**
 * `holdsKey` of a part of a query without `%` or `+`, read from its text: its `name=value` is the
 * text, with `=` added when it has none.
 */
function plainHoldsKey(text: string): boolean {
  if (!/key/i.test(text)) return false; // most parts
  return KEYLIKE.test(text) || (!text.includes('=') && KEYLIKE.test(`${text}=`));
}

// toISOString costs a microsecond (V8 formats it with snprintf); a log writes many lines a second.
let isoSecond = NaN;
let isoLead = '';

/** `new Date(time).toISOString()`, its text up to the milliseconds kept for the second. */
export function isoTime(time: number): string {
  const t = Math.trunc(time); // as Date does
  const second = Math.floor(t / 1000);
  if (second !== isoSecond) {
    const text = new Date(t).toISOString(); // throws a RangeError for NaN, as Date does
    isoSecond = second;
    isoLead = text.slice(0, -4); // up to `SS.`
  }
  const ms = t - second * 1000;
  return `${isoLead}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

/** What one access-log line says of a request. */
export interface Access {
  /** When, in milliseconds since the epoch. */
  time: number;
  /** The request id. */
  id: string;
  method: string;
  /** The request URL (or target): its `key` parameters are not written. */
  url: string;
  /** The status answered, or `cut` for a request whose connection closed before its answer was sent. */
  status: number | 'cut';
  /** How long the answer took. */
  ms: number;
  /** The hint of the request's key (default `-`, none). */
  keyHint?: string;
}

/** One access-log line: `<ISO time> <request id> <method> <path> <status> <ms>ms key=<hint>`. */
export function accessLine(a: Access): string {
  return `${isoTime(a.time)} ${a.id} ${a.method} ${logPath(a.url)} ${a.status} ${a.ms.toFixed(1)}ms key=${a.keyHint ?? '-'}`;
}
