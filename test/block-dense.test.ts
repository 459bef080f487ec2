/**
 * A dense-nodes group whose ids, lats and lons differ in length is refused with a clear error,
 * however they differ; one whose lengths agree decodes to those nodes. (Hand-made blocks: the
 * writer never makes such a group.)
 */
import { describe, expect, it } from 'vitest';
import { PbfWriter as Pbf } from 'pbf';
import { decodeBlock, KEEP_ALL } from '../src/load/block.js';

/** A PrimitiveBlock of one group of dense nodes, its three columns delta-coded as the format says. */
function denseBlock(ids: number[], lats: number[], lons: number[]): Uint8Array {
  const deltas = (v: number[]) => v.map((x, i) => x - (i ? v[i - 1] : 0));
  const pbf = new Pbf();
  pbf.writeMessage(1, (_: unknown, p: Pbf) => p.writeBytesField(1, new Uint8Array(0)), null); // string table: ''
  pbf.writeMessage(
    2,
    (_: unknown, g: Pbf) =>
      g.writeMessage(
        2,
        (__: unknown, d: Pbf) => {
          d.writePackedSVarint(1, deltas(ids));
          d.writePackedSVarint(8, deltas(lats));
          d.writePackedSVarint(9, deltas(lons));
        },
        null,
      ),
    null,
  );
  return pbf.finish();
}

describe('ids, lats and lons of one length decode to those nodes', () => {
  it('three nodes', () => {
    const b = decodeBlock(
      denseBlock([10, 11, 15], [277_000_000, 277_000_100, 276_999_000], [853_000_000, 853_000_050, 853_100_000]),
      KEEP_ALL,
    );
    expect(Array.from(b.nodeId, (v) => b.nodeBase + v)).toEqual([10, 11, 15]);
    expect(Array.from(b.nodeLat)).toEqual([277_000_000, 277_000_100, 276_999_000]);
    expect(Array.from(b.nodeLon)).toEqual([853_000_000, 853_000_050, 853_100_000]);
  });
});

describe('columns of different lengths are refused', () => {
  const ids = [10, 11, 15];
  const ll = [277_000_000, 277_000_100, 276_999_000];
  for (const [what, lats, lons] of [
    ['a lat short', ll.slice(0, 2), ll],
    ['a lon short', ll, ll.slice(0, 2)],
    ['a lat more', [...ll, 1], ll],
    ['a lon more', ll, [...ll, 1, 2, 3, 4]],
  ] as const) {
    it(what, () => {
      expect(() => decodeBlock(denseBlock(ids, [...lats], [...lons]), KEEP_ALL)).toThrow(/ids, lats and lons differ in length/);
    });
  }
});
