import type { Block, TagRuns } from './block.js';
import { IdTable } from './ids.js';

/**
 * The decoded blocks of a file joined into flat arrays, with id lookup: what the
 * place builder reads ways' and relations' members from.
 */
export class Osm {
  readonly nodes: IdTable;
  readonly lat: Int32Array;
  readonly lon: Int32Array;
  readonly ways: IdTable;
  readonly wayRefStart: Uint32Array;
  readonly wayRef: Float64Array;
  readonly relations: IdTable;
  readonly blocks: Block[];
  /** Per block, the global index of its first node, way and relation. */
  readonly base: Uint32Array;

  constructor(blocks: Block[]) {
    this.blocks = blocks;
    let nn = 0, nw = 0, nr = 0, nref = 0;
    this.base = new Uint32Array(blocks.length * 3);
    blocks.forEach((b, i) => {
      this.base[3 * i] = nn; this.base[3 * i + 1] = nw; this.base[3 * i + 2] = nr;
      nn += b.nodeId.length; nw += b.wayId.length; nr += b.relId.length; nref += b.wayRef.length;
    });
    const nodeId = new Float64Array(nn);
    this.lat = new Int32Array(nn);
    this.lon = new Int32Array(nn);
    const wayId = new Float64Array(nw);
    this.wayRefStart = new Uint32Array(nw + 1);
    this.wayRef = new Float64Array(nref);
    const relId = new Float64Array(nr);
    let ref = 0;
    blocks.forEach((b, i) => {
      const n0 = this.base[3 * i], w0 = this.base[3 * i + 1];
      nodeId.set(b.nodeId, n0);
      this.lat.set(b.nodeLat, n0);
      this.lon.set(b.nodeLon, n0);
      wayId.set(b.wayId, w0);
      for (let w = 0; w < b.wayId.length; w++) this.wayRefStart[w0 + w] = ref + b.wayRefStart[w];
      this.wayRef.set(b.wayRef, ref);
      ref += b.wayRef.length;
      relId.set(b.relId, this.base[3 * i + 2]);
    });
    this.wayRefStart[nw] = ref;
    this.nodes = new IdTable(nodeId);
    this.ways = new IdTable(wayId);
    this.relations = new IdTable(relId);
  }

  /** Calls `fn(block, runs, i, globalIndex)` for every object of a kind whose tags were kept. */
  eachTagged(kind: 0 | 1 | 2, fn: (b: Block, runs: TagRuns, i: number, index: number) => void): void {
    this.blocks.forEach((b, bi) => {
      const runs = kind === 0 ? b.nodeTags : kind === 1 ? b.wayTags : b.relTags;
      const base = this.base[3 * bi + kind];
      for (let i = 0; i < runs.owner.length; i++) fn(b, runs, i, base + runs.owner[i]);
    });
  }
}
