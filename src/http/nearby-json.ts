import type { PlaceIndex } from '../index/place-index.js';
import type { NearbyQuery } from '../types.js';
import { nearbyHits, nearbyRecord, placeFields, type NearbyHit } from '../query/nearby.js';
import { envelope, toWire, type WirePlace } from './envelope.js';
import type { Lang } from '../osm/name.js';

/** Most place records whose JSON one `NearbyJson` keeps (about 1 KB each); past it, it starts over. */
export const MAX_CACHED = 10_000;

const encoder = new TextEncoder();
// where `envelope` encodes its ASCII tails, as many bytes as characters
let scratch = new Uint8Array(1024);

/** JSON text as UTF-8, and its length as a string, in UTF-16 code units (the app's compression rule reads it). */
export interface Body {
  bytes: Uint8Array;
  chars: number;
}

/** A record's JSON up to its query-dependent fields: `{"placeId":…,"geometry":{…}`. */
type Head = Body;

/**
 * Writes `nearby()`'s 200 envelope as UTF-8 JSON, byte for byte what `JSON.stringify` makes of
 * the envelope of its records (`toWire`'d), without making the records: the fields that depend
 * only on the place (ids, names, tags, geometry) are written once per place and index and kept;
 * each answer writes only its score, distance and `open`. JSON.stringify of a 4.6 KB answer, and
 * its encoding to UTF-8, cost more than the search itself (bench/throughput.ts).
 */
export class NearbyJson {
  private heads = new WeakMap<PlaceIndex, Map<string, Map<number, Head>>>();
  private count = 0;
  private readonly max: number;
  // The envelope up to its records changes with its timestamp, once a second.
  private lead: Body & { second: number } = { second: NaN, bytes: new Uint8Array(), chars: 0 };

  /** @param max most records kept (default `MAX_CACHED`) */
  constructor(max = MAX_CACHED) {
    this.max = max;
  }

  /** The hits of one search in `index`, to be written as JSON or made records. */
  answer(index: PlaceIndex, hits: NearbyHit[]): NearbyAnswer {
    return new NearbyAnswer(this, index, hits);
  }

  /** `{"timestamp":…,"data":[` of a 200 envelope at `now`, as UTF-8, and its length as a string. */
  leadAt(now: number): Body {
    const second = Math.floor(now / 1000);
    if (second !== this.lead.second) {
      const text = JSON.stringify(envelope(200, undefined, [], now)).slice(0, -2);
      this.lead = { second, bytes: encoder.encode(text), chars: text.length };
    }
    return this.lead;
  }

  /** The kept head of a record (its names in `lang`, if given), written now if need be. */
  head(index: PlaceIndex, row: number, type: string, lang?: Lang): Head {
    let byType = this.heads.get(index);
    if (!byType) this.heads.set(index, (byType = new Map()));
    // a record's names and address differ by language: one set of heads per type and language
    const kind = lang ? `${type}\n${lang}` : type;
    let rows = byType.get(kind);
    if (!rows) byType.set(kind, (rows = new Map()));
    let head = rows.get(row);
    if (!head) {
      // The same object JSON.stringify would write, less its closing brace.
      const text = JSON.stringify(placeFields(index, row, type, lang)).slice(0, -1);
      head = { bytes: encoder.encode(text), chars: text.length };
      if (this.count >= this.max) {
        // bounded memory: start over (the places asked for again are written again)
        this.heads = new WeakMap();
        this.count = 0;
        return this.head(index, row, type, lang);
      }
      rows.set(row, head);
      this.count++;
    }
    return head;
  }
}

/**
 * The app's default search: the core's `nearby()`, answering a `NearbyAnswer` whose envelope is
 * written from the parts kept by one `NearbyJson` for the app.
 */
export function nearbyJson(): (index: PlaceIndex, query: NearbyQuery) => NearbyAnswer {
  const json = new NearbyJson();
  return (index, query) => json.answer(index, nearbyHits(index, query));
}

/** The places of one nearby search: written as an envelope's JSON, or made records. */
export class NearbyAnswer {
  constructor(
    private readonly json: NearbyJson,
    private readonly index: PlaceIndex,
    readonly hits: NearbyHit[],
  ) {}

  /** The records, as `nearby()` returns them and JSON carries them (`toWire`). */
  records(): WirePlace[] {
    return this.hits.map((hit) => toWire(nearbyRecord(this.index, hit)));
  }

  /** The 200 envelope of these records, `JSON.stringify(envelope(200, undefined, records(), now))` as UTF-8. */
  envelope(now: number): Body {
    // `…"data":[` and `]}`: the records go between the brackets
    const lead = this.json.leadAt(now);
    const heads: Head[] = [];
    const tails: string[] = [];
    let size = lead.bytes.length + 2;
    let chars = lead.chars + 2;
    for (let i = 0; i < this.hits.length; i++) {
      const hit = this.hits[i]!;
      const head = this.json.head(this.index, hit.row, hit.type, hit.lang);
      // ASCII only (numbers, `"NaN"` and the like, booleans): as many bytes as characters
      const tail = `,"score":${number(hit.score)},"radialDistanceInKm":${number(hit.radialDistanceInKm)},"open":${hit.open}}`;
      heads.push(head);
      tails.push(tail);
      const sep = i > 0 ? 1 : 0;
      size += sep + head.bytes.length + tail.length;
      chars += sep + head.chars + tail.length;
    }
    const bytes = slice(size);
    bytes.set(lead.bytes);
    let at = lead.bytes.length;
    // The tails encoded in one call (one per tail costs more) into a buffer kept for it (a new
    // one costs more than the encoding), then copied a byte at a time. Not read with charCodeAt:
    // a class extending String anywhere in the process (ioredis has one) makes that six times
    // slower, for the life of the process.
    const joined = tails.join('');
    if (scratch.length < joined.length) scratch = new Uint8Array(2 * joined.length);
    encoder.encodeInto(joined, scratch);
    const text = scratch;
    let c = 0;
    for (let i = 0; i < heads.length; i++) {
      if (i > 0) bytes[at++] = 0x2c; // ,
      bytes.set(heads[i]!.bytes, at);
      at += heads[i]!.bytes.length;
      for (const end = c + tails[i]!.length; c < end; c++) bytes[at++] = text[c]!;
    }
    bytes[at++] = 0x5d; // ]
    bytes[at] = 0x7d; // }
    return { bytes, chars };
  }
}

// A number as JSON.stringify writes it after `toWire`: a finite one as String() does (the same
// shortest round-trip form, -0 as 0), NaN and the infinities as strings. JSON.stringify of a lone
// number costs ten times the template.
function number(n: number): string {
  return Number.isFinite(n) ? `${n}` : `"${n}"`;
}

// Bodies are cut from shared slabs, as Node's Buffer pool does: an ArrayBuffer of their own is
// memory outside the JS heap, zeroed and tracked by the GC for every request (bench/throughput.ts
// shows it). A slab lives as long as the last body cut from it; a body is never written to once returned.
const SLAB = 64 * 1024;
let slab = new ArrayBuffer(0);
let used = 0;

/** `size` bytes of a slab, for a body (a large body has a buffer of its own). */
function slice(size: number): Uint8Array {
  if (size > SLAB / 4) return new Uint8Array(size);
  if (used + size > slab.byteLength) {
    slab = new ArrayBuffer(SLAB);
    used = 0;
  }
  const out = new Uint8Array(slab, used, size);
  used = (used + size + 7) & ~7; // each body on an 8-byte boundary, like Node's pool
  return out;
}
