/**
 * A block's node ids are held as 4-byte offsets from its smallest id where they span less than
 * 2^31, else as they are (`Block.nodeId`, `nodeBase`); either way every id reads back exactly,
 * and ways find their nodes across blocks of both kinds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PbfWriter, type OsmNode } from '../scripts/pbf-writer.js';
import { openPbf, readBlocks } from '../src/load/read.js';
import { KEEP_ALL, decodeBlock, type Block } from '../src/load/block.js';
import { PbfWriter as Pbf } from 'pbf';
import { loadPbf, place } from '../src/index.js';

let dir: string;
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'nepal-places-ids-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPAN = 2 ** 31 - 1;
const at = (k: number) => ({ lat: 277_000_000 + k * 1000, lon: 853_000_000 + k * 1000 });

/** Writes `blocks` (each a list of node ids, one block each) and a way through every node; returns its blocks as decoded. */
async function write(name: string, blocks: number[][]): Promise<{ file: string; decoded: Block[] }> {
  const file = join(dir, name);
  const w = new PbfWriter(file, { sorted: true, blockSize: Math.max(...blocks.map((b) => b.length)) });
  let k = 0;
  const nodes: OsmNode[] = blocks.flat().map((id) => ({
    id,
    ...at(k++),
    tags: [
      ['amenity', 'cafe'],
      ['name', `cafe ${id}`],
    ],
  }));
  for (const n of nodes) w.node(n);
  w.way({
    id: 1,
    refs: nodes.map((n) => n.id),
    tags: [
      ['highway', 'residential'],
      ['name', 'Ids Marg'],
    ],
  });
  await w.close();
  const decoded: Block[] = [];
  await readBlocks(await openPbf(file), 0, KEEP_ALL, (_, b) => void decoded.push(b));
  return { file, decoded };
}

describe('ids that span less than 2^31 are offsets from the smallest, in 4 bytes', () => {
  it('a block from 7 to 7 + (2^31 - 1): an Int32Array from base 7, every id exact', async () => {
    const ids = [7, 9, 1_000_000_000, 7 + SPAN];
    const { decoded } = await write('narrow.osm.pbf', [ids]);
    const b = decoded.find((d) => d.nodeId.length)!;
    expect(b.nodeId).toBeInstanceOf(Int32Array);
    expect(b.nodeBase).toBe(7);
    expect(Array.from(b.nodeId, (v) => b.nodeBase + v)).toEqual(ids);
  });
});

describe('ids that span 2^31 or more are held as they are', () => {
  it('a block from 7 to 7 + 2^31: a Float64Array with base 0', async () => {
    const ids = [7, 8 + SPAN];
    const { decoded } = await write('wide.osm.pbf', [ids]);
    const b = decoded.find((d) => d.nodeId.length)!;
    expect(b.nodeId).toBeInstanceOf(Float64Array);
    expect(b.nodeBase).toBe(0);
    expect(Array.from(b.nodeId)).toEqual(ids);
  });
});

describe('a load finds every node by its id, in blocks of both kinds', () => {
  it('node places keep their ids, and the way through all of them has every point', async () => {
    // block 1 narrow (base 5), block 2 wide (2^40 .. 2^40 + 2^32), block 3 narrow with a base above 2^32
    const blocks = [
      [5, 6, 5 + SPAN],
      [2 ** 40, 2 ** 40 + 2 ** 32],
      [2 ** 41, 2 ** 41 + 3],
    ];
    const { file } = await write('mixed.osm.pbf', blocks);
    const index = await loadPbf(file);
    for (const id of blocks.flat()) expect(place(index, id * 4)?.name).toBe(`cafe ${id}`);
    const street = place(index, 1 * 4 + 1);
    expect(street?.name).toBe('Ids Marg');
    expect(index.router!.graph.coords.length / 2).toBe(blocks.flat().length);
  });
});

/** A group of a hand-made block: dense nodes, or plain `Node` messages (the writer makes only one dense group a block). */
type Group = { dense: number[] } | { plain: number[] };

/** A PrimitiveBlock of `groups`, node k of the whole block at `at(k)`. */
function handBlock(groups: Group[]): Uint8Array {
  const deltas = (v: number[]) => v.map((x, i) => x - (i ? v[i - 1] : 0));
  const pbf = new Pbf();
  pbf.writeMessage(1, (_: unknown, p: Pbf) => p.writeBytesField(1, new Uint8Array(0)), null);
  let k = 0;
  for (const g of groups) {
    pbf.writeMessage(
      2,
      (_: unknown, out: Pbf) => {
        if ('dense' in g) {
          const pts = g.dense.map(() => at(k++));
          out.writeMessage(
            2,
            (__: unknown, d: Pbf) => {
              d.writePackedSVarint(1, deltas(g.dense));
              d.writePackedSVarint(8, deltas(pts.map((p) => p.lat)));
              d.writePackedSVarint(9, deltas(pts.map((p) => p.lon)));
            },
            null,
          );
        } else {
          for (const id of g.plain) {
            const p = at(k++);
            out.writeMessage(
              1,
              (__: unknown, n: Pbf) => {
                n.writeSVarintField(1, id);
                n.writeSVarintField(8, p.lat);
                n.writeSVarintField(9, p.lon);
              },
              null,
            );
          }
        }
      },
      null,
    );
  }
  return pbf.finish();
}

describe('every id reads back exactly, however a block holds its nodes', () => {
  const cases: [string, Group[]][] = [
    ['a first id that is not the smallest', [{ dense: [1000, 5, 2000] }]],
    ['ids 2^31 below the first', [{ dense: [2 ** 31 + 10, 10, 11] }]],
    ['ids 2^31 above the first', [{ dense: [10, 2 ** 31 + 10] }]],
    ['two dense groups', [{ dense: [10, 11] }, { dense: [12, 2 ** 40] }]],
    ['dense nodes, then plain ones', [{ dense: [10, 11] }, { plain: [12, 13] }]],
    ['plain nodes, then dense ones', [{ plain: [5] }, { dense: [6, 7] }]],
  ];
  for (const [what, groups] of cases) {
    it(what, () => {
      const b = decodeBlock(handBlock(groups), KEEP_ALL);
      const ids = groups.flatMap((g) => ('dense' in g ? g.dense : g.plain));
      expect(Array.from(b.nodeId, (v) => b.nodeBase + v)).toEqual(ids);
      expect(Array.from(b.nodeLat)).toEqual(ids.map((_, k) => at(k).lat));
      expect(Array.from(b.nodeLon)).toEqual(ids.map((_, k) => at(k).lon));
    });
  }
});
