import Flatbush from 'flatbush';

/**
 * A spatial index's box rule: writes item `item`'s box (minX, minY, maxX, maxY, in 1e-7 degrees)
 * into `out` from `at`. Its tree is built with it, and a snapshot's tree restored with it from
 * the leaves' ids alone: the one rule makes both the same tree, byte for byte.
 */
export type BoxOf = (item: number, out: Int32Array, at: number) => void;

/** A tree of `items` items whose boxes `box` gives (how a snapshot restores a stored one). */
export type TreeFrom = (items: number, box: BoxOf) => Flatbush;

/** A Flatbush of `items` Int32 boxes (node size 16), item i's box as `box` gives it. */
export function boxTree(items: number, box: BoxOf): Flatbush {
  const tree = new Flatbush(items, 16, Int32Array);
  const b = new Int32Array(4);
  for (let i = 0; i < items; i++) {
    box(i, b, 0);
    tree.add(b[0], b[1], b[2], b[3]);
  }
  tree.finish();
  return tree;
}
