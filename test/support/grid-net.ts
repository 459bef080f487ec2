/**
 * Hand-made networks of straight ways between grid points (test/support/roads.ts), with
 * buildings where a test asks for a built-up area, written with the project's PBF writer.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PbfWriter, type OsmNode } from '../../scripts/pbf-writer.js';
import { latLon, nodeId, type P } from './roads.js';

type Tags = [string, string][];
const t = (s: string): Tags => (s ? s.split(' ').map((kv) => kv.split('=') as [string, string]) : []);

/** Writes grid ways (and tagged nodes, and building ways at points) into a temp PBF. */
export async function writeNet(
  ways: { id: number; pts: P[]; tags: string }[],
  extra: { buildings?: { at: P; count: number }[] } = {},
): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-profiles-')), 'net.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const nodes = new Map<number, OsmNode>();
  const put = (p: P) => {
    const [lat, lon] = latLon(p);
    nodes.set(nodeId(p), { id: nodeId(p), lat: Math.round(lat * 1e7), lon: Math.round(lon * 1e7) });
  };
  const all: { id: number; refs: number[]; tags: Tags }[] = [];
  for (const way of ways) {
    way.pts.forEach(put);
    all.push({ id: way.id, refs: way.pts.map(nodeId), tags: t(way.tags) });
  }
  // buildings: tiny triangles whose first node is the point itself (ids from 9e8 up)
  let id = 900_000_000,
    wid = 900_000_000;
  for (const b of extra.buildings ?? [])
    for (let i = 0; i < b.count; i++) {
      const [lat, lon] = latLon(b.at);
      const refs: number[] = [];
      for (const [dy, dx] of [
        [0, 0],
        [5, 0],
        [0, 5],
      ]) {
        nodes.set(++id, { id, lat: Math.round(lat * 1e7) + dy, lon: Math.round(lon * 1e7) + dx });
        refs.push(id);
      }
      all.push({ id: ++wid, refs: [...refs, refs[0]], tags: [['building', 'yes']] });
    }
  for (const n of [...nodes.values()].sort((a, b) => a.id - b.id)) w.node(n);
  for (const way of all.sort((a, b) => a.id - b.id)) w.way(way);
  await w.close();
  return file;
}
