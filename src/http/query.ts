/**
 * The query string of a request URL, as the app reads it. One function for the app and the
 * access log, so that the log redacts exactly the `key` parameters the app would read.
 */

/** The raw query of a URL or request target: everything after its first `?`, or `''`. */
export function rawQuery(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}

/** What the app reads of a request's query parameters: these methods of `URLSearchParams`. */
export interface Search {
  /** The first value of `name`, or null. */
  get(name: string): string | null;
  /** Every value of `name`, in order. */
  getAll(name: string): string[];
  has(name: string): boolean;
  /** The names, in order, repeated ones repeated. */
  keys(): Iterable<string>;
  /** Each name and value, in order. */
  [Symbol.iterator](): Iterator<[string, string]>;
}

/**
 * The query of a request URL, read as browsers and `URLSearchParams` read it; never throws.
 * A query with nothing to decode (no `%` or `+`, ASCII only), the usual case, is cut at `&` and
 * `=` here: Node's URLSearchParams reads a character at a time with `charCodeAt`, which a class
 * extending String anywhere in the process (ioredis has one) makes six times slower.
 */
export function queryOf(url: string): Search {
  const raw = rawQuery(url);
  if (!PLAIN.test(raw)) return new URLSearchParams(raw);
  const names: string[] = [];
  const values: string[] = [];
  // as URLSearchParams: one leading `?` dropped, empty parts skipped, a name up to the first `=`
  let at = raw.startsWith('?') ? 1 : 0;
  // the next `=` at or after `at`, kept across parts: looking it up from each part would read a
  // long run of parts without one again and again
  let eq = -1;
  while (at <= raw.length) {
    let end = raw.indexOf('&', at);
    if (end < 0) end = raw.length;
    if (end > at) {
      if (eq < at) eq = raw.indexOf('=', at) >>> 0; // none: past every part
      if (eq > end) {
        names.push(raw.slice(at, end));
        values.push('');
      } else {
        names.push(raw.slice(at, eq));
        values.push(raw.slice(eq + 1, end));
      }
    }
    at = end + 1;
  }
  return new Params(names, values);
}

// Nothing to decode: no `%`, no `+`, nothing outside ASCII (which URLSearchParams reads as UTF-8).
const PLAIN = /^[^%+\u0080-\uffff]*$/;

/** A query's parameters, in order. */
class Params implements Search {
  constructor(
    private readonly names: string[],
    private readonly values: string[],
  ) {}

  get(name: string): string | null {
    const i = this.names.indexOf(name);
    return i < 0 ? null : this.values[i]!;
  }

  getAll(name: string): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.names.length; i++) if (this.names[i] === name) out.push(this.values[i]!);
    return out;
  }

  has(name: string): boolean {
    return this.names.includes(name);
  }

  keys(): Iterable<string> {
    return this.names;
  }

  *[Symbol.iterator](): Iterator<[string, string]> {
    for (let i = 0; i < this.names.length; i++) yield [this.names[i]!, this.values[i]!];
  }
}

/**
 * The raw query cut into the parts `URLSearchParams` reads one by one, each with the name it
 * reads there: it drops one leading `?`, splits on `&` (only), and percent-decodes each name with
 * `+` as a space. Parts are independent, so reading a part alone gives the name the whole gives it.
 */
export function queryParts(raw: string): { lead: string; parts: QueryPart[] } {
  const lead = raw.startsWith('?') ? '?' : '';
  const parts = (lead ? raw.slice(1) : raw).split('&').map(readPart);
  return { lead, parts };
}

/** One `&`-separated part of a query: its text, and its name and value as `URLSearchParams` reads them. */
export interface QueryPart {
  text: string;
  name: string;
  value: string;
}

function readPart(text: string): QueryPart {
  if (!/[%+]/.test(text)) {
    const eq = text.indexOf('=');
    return eq < 0 ? { text, name: text, value: '' } : { text, name: text.slice(0, eq), value: text.slice(eq + 1) };
  }
  for (const [name, value] of new URLSearchParams(text)) return { text, name, value };
  return { text, name: '', value: '' };
}
