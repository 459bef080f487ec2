import KDBush from 'kdbush';

// KDBush's bytes (version 1, pinned in package.json; test/library-layout.test.ts checks them):
// an 8-byte header (0xdb, version << 4 | array type, nodeSize u16, numItems u32), the item ids in
// tree order (Uint16 below 65536 items, else Uint32), padding to 8 bytes, then x, y per id.
const HEADER = Uint8Array.of(0xdb, (1 << 4) + 5); // version 1, Int32Array

/**
 * The KDBush whose items, in tree order, are `ids`, item i at (`x[rows[i]]`, `y[rows[i]]`): a tree
 * of rows' points stored as its ids alone (a few bytes an item, where its data takes 10–12),
 * its coordinates taken from the table. `ids` must be a permutation of the items (the caller checks).
 */
export function kdbushFrom(ids: Uint32Array, nodeSize: number, x: Int32Array, y: Int32Array, rows: Uint32Array): KDBush {
  const n = ids.length;
  const Index = n < 65536 ? Uint16Array : Uint32Array;
  const idBytes = n * Index.BYTES_PER_ELEMENT;
  const coordsAt = 8 + idBytes + ((8 - (idBytes % 8)) % 8);
  const data = new ArrayBuffer(coordsAt + 8 * n);
  new Uint8Array(data, 0, 2).set(HEADER);
  new Uint16Array(data, 2, 1)[0] = nodeSize;
  new Uint32Array(data, 4, 1)[0] = n;
  new Index(data, 8, n).set(ids);
  const c = new Int32Array(data, coordsAt, 2 * n);
  for (let k = 0; k < n; k++) {
    const r = rows[ids[k]];
    c[2 * k] = x[r];
    c[2 * k + 1] = y[r];
  }
  return KDBush.from(data);
}
