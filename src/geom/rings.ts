/**
 * Joins the member ways of a multipolygon into closed rings, by their end node
 * ids. Extracts lose members at their edges, so what cannot close is reported,
 * not thrown. Written here because the JS libraries that assemble OSM
 * multipolygons (osmtogeojson and kin) want the whole dataset as OSM JSON objects,
 * which a loader of typed arrays never builds.
 */

/** A member way as its node ids. */
export type Chain = number[];

/** Closed rings (first id = last id) and how many chains could not be closed. */
export interface Joined {
  rings: Chain[];
  open: number;
}

/** Joins chains end to end into closed rings. */
export function joinRings(chains: Chain[]): Joined {
  const rings: Chain[] = [];
  const pending: Chain[] = [];
  for (const c of chains) {
    if (c.length < 2) continue;
    if (c[0] === c[c.length - 1]) rings.push(c.slice());
    else pending.push(c);
  }
  // endpoint id -> indexes of pending chains ending there
  const ends = new Map<number, number[]>();
  const add = (id: number, i: number) => {
    const list = ends.get(id);
    if (list) list.push(i);
    else ends.set(id, [i]);
  };
  pending.forEach((c, i) => {
    add(c[0], i);
    add(c[c.length - 1], i);
  });
  const used = new Uint8Array(pending.length);
  const take = (id: number): number => {
    const list = ends.get(id);
    if (!list) return -1;
    for (const i of list)
      if (!used[i]) {
        used[i] = 1;
        return i;
      }
    return -1;
  };

  let open = 0;
  for (let s = 0; s < pending.length; s++) {
    if (used[s]) continue;
    used[s] = 1;
    const ring = pending[s].slice();
    for (;;) {
      const last = ring[ring.length - 1];
      if (last === ring[0]) break;
      const i = take(last);
      if (i < 0) break;
      const c = pending[i];
      if (c[0] === last) for (let k = 1; k < c.length; k++) ring.push(c[k]);
      else for (let k = c.length - 2; k >= 0; k--) ring.push(c[k]);
    }
    if (ring[0] === ring[ring.length - 1]) rings.push(ring);
    else open++;
  }
  return { rings, open };
}
