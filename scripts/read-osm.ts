// Typed access to `osm-read` (a CommonJS reader built on protobufjs, independent of our `pbf`
// code): its streaming parser for whole files, and its generated decoders for the file's frames.

import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import type { MemberType, OsmNode, OsmRelation, OsmWay } from './pbf-writer.js';

const require = createRequire(import.meta.url);

interface RawNode {
  id: string;
  lat: number;
  lon: number;
  tags: Record<string, string>;
}
interface RawWay {
  id: string;
  nodeRefs: string[];
  tags: Record<string, string>;
}
interface RawRelation {
  id: string;
  members: { type: MemberType; ref: string; role: string }[];
  tags: Record<string, string>;
}
interface ParseOptions {
  filePath: string;
  node(n: RawNode): void;
  way(w: RawWay): void;
  relation(r: RawRelation): void;
  endDocument(): void;
  error(e: unknown): void;
}
type Long = number | { toString(): string };
interface Decoder<T> {
  decode(bytes: Uint8Array): T;
}
interface Proto {
  OSMPBF: {
    BlobHeader: Decoder<{ type: string; datasize: number }>;
    Blob: Decoder<{ raw: Uint8Array; rawSize: number; zlibData: Uint8Array }>;
    HeaderBlock: Decoder<{
      bbox: { left: Long; right: Long; top: Long; bottom: Long } | null;
      requiredFeatures: string[];
      optionalFeatures: string[];
      writingprogram: string;
      source: string;
      osmosisReplicationTimestamp: Long;
    }>;
    PrimitiveBlock: Decoder<{
      granularity: number;
      stringtable: { s: Uint8Array[] };
      primitivegroup: { dense: { id: Long[] } | null; nodes: unknown[]; ways: unknown[]; relations: unknown[] }[];
    }>;
  };
}

const osmRead = require('osm-read') as { parsePbf(options: ParseOptions): void };
const proto = require('osm-read/lib/proto') as Proto;

/** A whole file as osm-read reads it, in the writer's shapes: coordinates back in fixed-point 1e-7 degrees, tags in file order. */
export interface OsmData {
  nodes: OsmNode[];
  ways: OsmWay[];
  relations: OsmRelation[];
}

/**
 * Reads a PBF file with osm-read. Tags come back in file order unless a key looks like an
 * array index (osm-read returns tags as a plain object).
 */
export function readOsm(path: string): Promise<OsmData> {
  const data: OsmData = { nodes: [], ways: [], relations: [] };
  return new Promise((resolve, reject) => {
    osmRead.parsePbf({
      filePath: path,
      node: (n) =>
        data.nodes.push({
          id: Number(n.id),
          lat: Math.round(n.lat * 1e7),
          lon: Math.round(n.lon * 1e7),
          tags: Object.entries(n.tags ?? {}),
        }),
      way: (w) => data.ways.push({ id: Number(w.id), refs: w.nodeRefs.map(Number), tags: Object.entries(w.tags) }),
      relation: (r) =>
        data.relations.push({
          id: Number(r.id),
          members: r.members.map((m) => ({ type: m.type, ref: Number(m.ref), role: m.role })),
          tags: Object.entries(r.tags),
        }),
      endDocument: () => resolve(data),
      error: (e) => reject(e instanceof Error ? e : new Error(String(e))),
    });
  });
}

/** One frame of a PBF file, decoded by osm-read's protobufjs decoders. */
export interface Frame {
  type: string;
  /** `datasize` as the BlobHeader states it. */
  datasize: number;
  /** The blob's real size in the file. */
  blobSize: number;
  /** Which field holds the data: `zlib_data` or `raw`. */
  compression: 'zlib' | 'raw';
  /** `raw_size` as the Blob states it (0 when absent). */
  rawSize: number;
  /** The block bytes, inflated if needed. */
  data: Uint8Array;
}

/** Splits a whole PBF file into its frames; throws if a frame runs past the end of the bytes. */
export function readFrames(bytes: Uint8Array): Frame[] {
  const frames: Frame[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  while (pos < bytes.length) {
    const headerLength = view.getUint32(pos);
    const header = proto.OSMPBF.BlobHeader.decode(bytes.subarray(pos + 4, pos + 4 + headerLength));
    const start = pos + 4 + headerLength;
    const end = start + header.datasize;
    if (end > bytes.length) throw new Error(`frame at ${pos} runs past the end (${end} > ${bytes.length})`);
    const blob = proto.OSMPBF.Blob.decode(bytes.subarray(start, end));
    const zlib = blob.zlibData.length > 0;
    frames.push({
      type: header.type,
      datasize: header.datasize,
      blobSize: end - start,
      compression: zlib ? 'zlib' : 'raw',
      rawSize: blob.rawSize,
      data: zlib ? inflateSync(blob.zlibData) : blob.raw,
    });
    pos = end;
  }
  return frames;
}

/** The fields of a HeaderBlock; bbox in nanodegrees as stored. */
export interface Header {
  bbox: { left: number; right: number; top: number; bottom: number } | null;
  requiredFeatures: string[];
  optionalFeatures: string[];
  writingProgram: string;
  source: string;
  replicationTimestamp: number;
}

/** Decodes a HeaderBlock's bytes. */
export function decodeHeader(data: Uint8Array): Header {
  const h = proto.OSMPBF.HeaderBlock.decode(data);
  const b = h.bbox;
  return {
    bbox: b && { left: num(b.left), right: num(b.right), top: num(b.top), bottom: num(b.bottom) },
    requiredFeatures: h.requiredFeatures,
    optionalFeatures: h.optionalFeatures,
    writingProgram: h.writingprogram,
    source: h.source,
    replicationTimestamp: num(h.osmosisReplicationTimestamp),
  };
}

/** What a PrimitiveBlock holds: its string table and, per group, how many entities of each kind. */
export interface BlockSummary {
  granularity: number;
  strings: string[];
  groups: { dense: number; nodes: number; ways: number; relations: number }[];
}

/** Decodes a PrimitiveBlock's bytes into a summary. */
export function decodeBlock(data: Uint8Array): BlockSummary {
  const b = proto.OSMPBF.PrimitiveBlock.decode(data);
  const utf8 = new TextDecoder();
  return {
    granularity: b.granularity,
    strings: b.stringtable.s.map((s) => utf8.decode(s)),
    groups: b.primitivegroup.map((g) => ({
      dense: g.dense ? g.dense.id.length : 0,
      nodes: g.nodes.length,
      ways: g.ways.length,
      relations: g.relations.length,
    })),
  };
}

function num(x: Long): number {
  return typeof x === 'number' ? x : Number(x.toString());
}
