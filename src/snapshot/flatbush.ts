import type Flatbush from 'flatbush';

/**
 * A Flatbush's own bytes, to store: a restored one views the whole snapshot from its byteOffset.
 * Its length is worked out from Flatbush's layout (header, then 4 coordinates and an index per
 * node), which Flatbush does not document: package.json pins its version, and
 * test/library-layout.test.ts checks the layout.
 */
export function flatbushData(tree: Flatbush): Uint8Array {
  let n = tree.numItems,
    nodes = n;
  do {
    n = Math.ceil(n / tree.nodeSize);
    nodes += n;
  } while (n !== 1);
  const bytes = 8 + nodes * 4 * tree.ArrayType.BYTES_PER_ELEMENT + nodes * tree.IndexArrayType.BYTES_PER_ELEMENT;
  return new Uint8Array(tree.data, tree.byteOffset, bytes);
}
