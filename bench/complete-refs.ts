// A reference-complete copy of a PBF, for tilemaker: it stops at the first way or
// relation that names a node it does not have ("Could not find node with id …", even
// with --skip-integrity), and extracts cut at their edges have many. osmium's extract
// strategies keep such references, so the copy is written here: every node, every way
// with its refs to absent nodes dropped (fewer than two left: the way goes), every
// relation with its members that are absent dropped. Decoded with the project's loader
// (every tag kept), written with scripts/pbf-writer.ts.

import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { KEEP_ALL, type Block } from '../src/load/block.js';
import { decodeFrames, defaultWorkers } from '../src/load/decode.js';
import { scanFrames } from '../src/load/frames.js';
import { Osm } from '../src/load/osm.js';
import { PbfWriter, type MemberType } from '../scripts/pbf-writer.js';

/** What the copy dropped. */
export interface Completed {
  path: string;
  droppedRefs: number;
  droppedWays: number;
  droppedMembers: number;
}

/**
 * Writes `out`, a copy of `input` whose ways and relations reference only objects in
 * it; reuses `out` when its sidecar says it was made from a file of `input`'s size.
 */
export async function completeRefs(input: string, out: string): Promise<Completed> {
  const side = `${out}.json`;
  const bytes = statSync(input).size;
  if (existsSync(out) && existsSync(side)) {
    const s = JSON.parse(readFileSync(side, 'utf8')) as Completed & { source: number };
    if (s.source === bytes) return s;
  }
  const buf = readFileSync(input);
  const frames = scanFrames(buf);
  const osm = new Osm();
  await decodeFrames(buf, frames.data, defaultWorkers(buf.length), (_, b) => osm.add(b), KEEP_ALL);
  osm.indexNodes();
  osm.indexWays();
  const w = new PbfWriter(out, { sorted: true, writingProgram: 'nepal-places bench complete-refs' });
  const tagsOf = (b: Block, runs: Block['nodeTags'], owner: number[], i: number): [string, string][] => {
    const k = owner[i];
    if (k === undefined) return [];
    const tags: [string, string][] = [];
    for (let j = runs.start[k]; j < runs.start[k + 1]; j++) tags.push([b.strings[runs.kv[2 * j]], b.strings[runs.kv[2 * j + 1]]]);
    return tags;
  };
  // object index -> its run in a block's TagRuns
  const runIndex = (runs: Block['nodeTags'], n: number) => {
    const at: number[] = new Array(n);
    for (let r = 0; r < runs.owner.length; r++) at[runs.owner[r]] = r;
    return at;
  };
  const result: Completed = { path: out, droppedRefs: 0, droppedWays: 0, droppedMembers: 0 };
  const keptWays = new Set<number>();
  const relIds = new Set<number>();
  for (const b of osm.blocks) for (const id of b.relId) relIds.add(id);
  for (const b of osm.blocks) {
    const at = runIndex(b.nodeTags, b.nodeId.length);
    for (let i = 0; i < b.nodeId.length; i++)
      w.node({ id: b.nodeBase + b.nodeId[i], lat: b.nodeLat[i], lon: b.nodeLon[i], tags: tagsOf(b, b.nodeTags, at, i) });
  }
  for (const b of osm.blocks) {
    const at = runIndex(b.wayTags, b.wayId.length);
    for (let i = 0; i < b.wayId.length; i++) {
      const refs: number[] = [];
      for (let j = b.wayRefStart[i]; j < b.wayRefStart[i + 1]; j++) {
        if (osm.nodes.find(b.wayRef[j])) refs.push(b.wayRef[j]);
        else result.droppedRefs++;
      }
      if (refs.length < 2) {
        result.droppedWays++;
        continue;
      }
      keptWays.add(b.wayId[i]);
      w.way({ id: b.wayId[i], refs, tags: tagsOf(b, b.wayTags, at, i) });
    }
  }
  const TYPES: MemberType[] = ['node', 'way', 'relation'];
  for (const b of osm.blocks) {
    const at = runIndex(b.relTags, b.relId.length);
    for (let i = 0; i < b.relId.length; i++) {
      const members = [];
      for (let m = b.relMemStart[i]; m < b.relMemStart[i + 1]; m++) {
        const type = b.relMemType[m],
          ref = b.relMemRef[m];
        const there = type === 0 ? osm.nodes.find(ref) : type === 1 ? keptWays.has(ref) : relIds.has(ref);
        if (!there) {
          result.droppedMembers++;
          continue;
        }
        members.push({ type: TYPES[type], ref, role: b.strings[b.relMemRole[m]] });
      }
      w.relation({ id: b.relId[i], members, tags: tagsOf(b, b.relTags, at, i) });
    }
  }
  await w.close();
  writeFileSync(side, JSON.stringify({ ...result, source: bytes }));
  return result;
}
