import Flatbush from 'flatbush';
import type { BoxOf } from '../geom/boxes.js';

// Flatbush's bytes (version 3, pinned in package.json; test/library-layout.test.ts checks them):
// an 8-byte header (0xfb, version << 4 | array type, nodeSize u16, numItems u32), then 4
// coordinates per node (the leaves in tree order, then each level up to the root), then an
// index per node (Uint16 below 16384 nodes, else Uint32): a leaf's item id, or a parent's first
// child's position in the boxes.
const VERSION = 3;
/** Int32Array's place in Flatbush's (and KDBush's) list of array types. */
const INT32 = 5;

/**
 * A Flatbush's own bytes, to store: a restored one views the whole snapshot from its byteOffset.
 * Its length is worked out from Flatbush's layout, which Flatbush does not document.
 */
export function flatbushData(tree: Flatbush): Uint8Array {
  const nodes = nodeCount(tree.numItems, tree.nodeSize);
  const bytes = 8 + nodes * 4 * tree.ArrayType.BYTES_PER_ELEMENT + nodes * tree.IndexArrayType.BYTES_PER_ELEMENT;
  return new Uint8Array(tree.data, tree.byteOffset, bytes);
}

/**
 * The leaves' item ids of a Flatbush of Int32 boxes, in tree order: what a snapshot stores of it.
 * Each leaf's box follows from its item (the index's box rule), each parent from its children.
 */
export function flatbushIds(tree: Flatbush): Uint32Array {
  if (tree.ArrayType !== Int32Array) throw new TypeError('only a Flatbush of Int32Array boxes is stored by its leaves');
  return Uint32Array.from(tree._indices.subarray(0, tree.numItems));
}

/**
 * The Flatbush whose leaves are the items `ids` (as `flatbushIds` gives them), each leaf's box as
 * `box` gives its item's: its parents computed as Flatbush's own `finish()` computes them after
 * sorting, so that the tree is the one built with the same rule, byte for byte. `ids` must be a
 * permutation of the items (the caller checks).
 */
export function flatbushFrom(ids: Uint32Array, nodeSize: number, box: BoxOf): Flatbush {
  const n = ids.length;
  if (!(n > 0 && nodeSize >= 2 && nodeSize <= 0xffff)) throw new RangeError('a tree of no items or of a node size out of range');
  const nodes = nodeCount(n, nodeSize);
  const Index = nodes < 16384 ? Uint16Array : Uint32Array;
  const data = new ArrayBuffer(8 + nodes * 16 + nodes * Index.BYTES_PER_ELEMENT);
  new Uint8Array(data, 0, 2).set([0xfb, (VERSION << 4) + INT32]);
  new Uint16Array(data, 2, 1)[0] = nodeSize;
  new Uint32Array(data, 4, 1)[0] = n;
  const b = new Int32Array(data, 8, nodes * 4);
  const index = new Index(data, 8 + nodes * 16, nodes);
  for (let p = 0; p < n; p++) box(ids[p], b, 4 * p);
  index.set(ids);
  // each level's parents, a block of nodeSize children each, bottom-up (Flatbush's finish())
  let pos = 4 * n,
    read = 0;
  while (pos < 4 * nodes) {
    const end = pos;
    while (read < end) {
      const first = read;
      let x0 = b[read++],
        y0 = b[read++],
        x1 = b[read++],
        y1 = b[read++];
      for (let j = 1; j < nodeSize && read < end; j++) {
        x0 = Math.min(x0, b[read++]);
        y0 = Math.min(y0, b[read++]);
        x1 = Math.max(x1, b[read++]);
        y1 = Math.max(y1, b[read++]);
      }
      index[pos >> 2] = first;
      b[pos++] = x0;
      b[pos++] = y0;
      b[pos++] = x1;
      b[pos++] = y1;
    }
  }
  return Flatbush.from(data);
}

function nodeCount(numItems: number, nodeSize: number): number {
  let n = numItems,
    nodes = n;
  do {
    n = Math.ceil(n / nodeSize);
    nodes += n;
  } while (n !== 1);
  return nodes;
}
