/**
 * A hand-made road network for the access, one-way and barrier rules: one case per rule on its
 * own patch of the 0.001° grid of test/support/roads.ts (x from 1000 east, 10 units apart, so no
 * road joins two cases). Each case is a "bypass": from A (0, 0) to B (2, 0) straight through
 * M (1, 0) on the way under test (197 m), or round by the public residential detour
 * A (0, 1) (2, 1) B (419 m). Where the rule lets the mode along the straight way it goes
 * straight; where not, it takes the detour. Barrier cases tag the node M instead.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PbfWriter, type OsmNode } from '../../scripts/pbf-writer.js';
import { nodeId, type P } from './roads.js';

type Tags = [string, string][];

/** One bypass case: the tags of the straight way and of its middle node M. */
export interface Bypass {
  way: Tags;
  node?: Tags;
}

/** The grid points of case number `i`: A, M, B on the straight way, and the detour's corners C (0, 1), D (2, 1). */
export function points(i: number): { A: P; M: P; B: P; C: P; D: P } {
  const x = 1000 + 10 * i;
  return { A: [x, 0], M: [x + 1, 0], B: [x + 2, 0], C: [x, 1], D: [x + 2, 1] };
}

/** Writes the cases (case i at `points(i)`) into a fresh temp folder; returns the file's path. */
export async function writeBypasses(
  cases: readonly Bypass[],
  extra: { nodes?: [P, Tags][]; ways?: { id: number; pts: P[]; tags: Tags }[] } = {},
): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-access-')), 'access.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const nodes = new Map<number, OsmNode>();
  const put = ([x, y]: P, tags?: Tags) => {
    const id = nodeId([x, y]);
    const had = nodes.get(id);
    nodes.set(id, { id, lat: 277_000_000 + y * 10_000, lon: 853_000_000 + x * 10_000, tags: tags ?? had?.tags });
  };
  const ways: { id: number; refs: number[]; tags: Tags }[] = [];
  cases.forEach((c, i) => {
    const { A, M, B, C, D } = points(i);
    [A, B, C, D].forEach((p) => put(p));
    put(M, c.node);
    ways.push({
      id: 10_000 + 10 * i,
      refs: [A, M, B].map(nodeId),
      tags: [['highway', 'residential'], ['name', `Straight ${i}`], ...c.way],
    });
    ways.push({
      id: 10_000 + 10 * i + 1,
      refs: [A, C, D, B].map(nodeId),
      tags: [
        ['highway', 'residential'],
        ['name', `Detour ${i}`],
      ],
    });
  });
  for (const way of extra.ways ?? []) {
    way.pts.forEach((p) => put(p));
    ways.push({ id: way.id, refs: way.pts.map(nodeId), tags: way.tags });
  }
  for (const [p, tags] of extra.nodes ?? []) put(p, tags);
  for (const n of [...nodes.values()].sort((a, b) => a.id - b.id)) w.node(n);
  for (const way of ways.sort((a, b) => a.id - b.id)) w.way(way);
  await w.close();
  return file;
}
