import KDBush from 'kdbush';
import type { PlaceTable } from '../model/table.js';
import { MERGED_TYPES } from '../osm/place.js';
import { nodeMaxima } from './around.js';
import { Later } from './later.js';

/** The places of one queryable type in a spatial index of their centroids. */
export interface TypeTree {
  /** KDBush over centroids (lon, lat in 1e-7 degrees); item `i` is `place[i]`. */
  tree: KDBush;
  /** Place row of each item. */
  place: Uint32Array;
  /** String index of the type each item matched (a member, for a merged type). */
  matched: Uint32Array;
  /** Prominence of each item. */
  prom: Float64Array;
  /** Highest prominence under each tree node: the bounds of a score search (see `around`). */
  nodeMax: Float64Array;
}

const NO_NAMES: readonly string[] = [];

// small leaves let a nearest-first walk stop after few points
const NODE_SIZE = 16;

/**
 * One spatial index per type and per merged type, so a query touches only the
 * places of its type, however rare the type and however large the country; each
 * made on its type's first query.
 */
export function buildTypeTrees(t: PlaceTable): Map<string, TypeTree> {
  // type -> [place, matched type] pairs, in place order
  const members = new Map<string, number[]>();
  const merged = new Map<string, string[]>(); // member type -> merged names
  for (const [name, list] of Object.entries(MERGED_TYPES)) {
    for (const m of list) merged.set(m, [...(merged.get(m) ?? []), name]);
  }
  const push = (type: string, p: number, matched: number) => {
    let list = members.get(type);
    if (!list) members.set(type, (list = []));
    list.push(p, matched);
  };
  for (let p = 0; p < t.size; p++) {
    let seen: Set<string> | undefined;
    for (let k = t.typeStart[p]; k < t.typeStart[p + 1]; k++) {
      const s = t.typeList[k];
      const type = t.strings[s];
      // a merged name shadows the plain type of the same name (`parking`, `tourism`, `clinic`)
      if (!Object.hasOwn(MERGED_TYPES, type)) push(type, p, s);
      // the first of a place's types that is a member names the match, and the place enters once
      for (const name of merged.get(type) ?? NO_NAMES) {
        seen ??= new Set<string>();
        if (!seen.has(name)) {
          seen.add(name);
          push(name, p, s);
        }
      }
    }
  }
  const trees = new Map<string, TypeTree>();
  for (const [type, list] of members) {
    const n = list.length / 2;
    const place = new Uint32Array(n);
    const matched = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      place[i] = list[2 * i];
      matched[i] = list[2 * i + 1];
    }
    // a type's spatial index is made by its first query: at Nepal scale all of them are seconds of
    // a load, and most types are never asked for; its places alone (its count) need none
    const made = new Later(() => {
      const tree = new KDBush(n, NODE_SIZE, Int32Array);
      for (let i = 0; i < n; i++) tree.add(t.lon[place[i]], t.lat[place[i]]);
      tree.finish();
      return typeTree(t, tree, place, matched);
    });
    trees.set(
      type,
      lazyTypeTree(
        () => place,
        () => matched,
        made,
      ),
    );
  }
  return trees;
}

/**
 * A type's tree whose spatial index, prominence and score bounds `made` makes on their first read;
 * its places (its count) and matched types come from `place` and `matched`, which need not make it.
 */
export function lazyTypeTree(place: () => Uint32Array, matched: () => Uint32Array, made: Later<TypeTree>): TypeTree {
  return {
    get place() {
      return place();
    },
    get matched() {
      return matched();
    },
    get tree() {
      return made.get().tree;
    },
    get prom() {
      return made.get().prom;
    },
    get nodeMax() {
      return made.get().nodeMax;
    },
  };
}

/** A type's tree with the prominence of its places and its score bounds, from its built KDBush and places. */
export function typeTree(t: PlaceTable, tree: KDBush, place: Uint32Array, matched: Uint32Array): TypeTree {
  const n = place.length;
  if (tree.numItems !== n || matched.length !== n) throw new RangeError(`a type tree of ${tree.numItems} items for ${n} places`);
  const prom = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (!(place[i] < t.size) || !(matched[i] < t.strings.length)) throw new RangeError('a type tree item out of the table');
    prom[i] = t.prominence[place[i]];
  }
  return { tree, place, matched, prom, nodeMax: nodeMaxima(tree, prom) };
}
