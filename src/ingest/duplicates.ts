import type { Block, TagRuns } from '../load/block.js';
import type { BlockIds } from '../load/ids.js';

/**
 * Drops every version but the last (in file order) of each node, way and relation whose id
 * the file repeats, as osmium does when it merges: extracts merged by concatenation, or a
 * file with an object's old and new versions, have such repeats. Blocks that lose objects
 * are replaced in `blocks` by compacted copies; the others are left as they are. Returns
 * how many objects were dropped. `indexed`: lookups of the blocks' nodes and ways made before
 * (`Osm.indexNodes`, `indexWays`); one that holds every id of its kind and found them ascending
 * has said that none repeats, and they are not scanned again.
 */
export function dropDuplicates(blocks: Block[], indexed: { nodes?: BlockIds; ways?: BlockIds } = {}): number {
  const unique = (ix: BlockIds | undefined, ids: ArrayLike<number>[]) => ix?.ascending === true && ix.count === total(ids);
  const nodeIds = blocks.map((b) => b.nodeId),
    wayIds = blocks.map((b) => b.wayId);
  const nodes = unique(indexed.nodes, nodeIds)
    ? undefined
    : superseded(
        nodeIds,
        blocks.map((b) => b.nodeBase),
      );
  const ways = unique(indexed.ways, wayIds) ? undefined : superseded(wayIds);
  const relations = superseded(blocks.map((b) => b.relId));
  let count = 0;
  for (const s of [nodes, ways, relations]) count += s?.count ?? 0;
  if (count === 0) return 0;
  for (let i = 0; i < blocks.length; i++) {
    const n = nodes?.masks[i],
      w = ways?.masks[i],
      r = relations?.masks[i];
    if (n || w || r) blocks[i] = compact(blocks[i], n, w, r);
  }
  return count;
}

// how many ids the arrays hold
function total(ids: ArrayLike<number>[]): number {
  let n = 0;
  for (const a of ids) n += a.length;
  return n;
}

/**
 * Per block, a mask of the objects a later one of the same id supersedes (undefined: none in it); undefined when no id repeats.
 * Block b's ids are `bases[b] + ids[b][k]` (see `Block.nodeId`).
 */
function superseded(
  ids: (Float64Array | Int32Array)[],
  bases: readonly number[] = ids.map(() => 0),
): { masks: (Uint8Array | undefined)[]; count: number } | undefined {
  // sorted files (the norm) ascend, so nothing repeats; in ids that never go down, repeats are neighbours
  let prev = -Infinity,
    ascending = true,
    rising = true;
  scan: for (let b = 0; b < ids.length; b++) {
    const a = ids[b],
      base = bases[b];
    for (let k = 0; k < a.length; k++) {
      const id = base + a[k];
      if (id <= prev) {
        ascending = false;
        if (id < prev) {
          rising = false;
          break scan;
        }
      }
      prev = id;
    }
  }
  if (ascending) return undefined;
  const masks: (Uint8Array | undefined)[] = ids.map(() => undefined);
  let count = 0;
  const drop = (b: number, k: number) => {
    (masks[b] ??= new Uint8Array(ids[b].length))[k] = 1;
    count++;
  };
  if (rising) {
    let pb = -1,
      pk = -1;
    prev = NaN;
    for (let b = 0; b < ids.length; b++) {
      for (let k = 0; k < ids[b].length; k++) {
        const id = bases[b] + ids[b][k];
        if (id === prev) drop(pb, pk);
        prev = id;
        pb = b;
        pk = k;
      }
    }
  } else {
    // the ids that repeat, from a sorted copy (a typed array's own sort, no comparator: fast),
    // then the file walked backwards: the first of each met is its last version
    const sorted = new Float64Array(total(ids));
    let n = 0;
    ids.forEach((a, b) => {
      for (let k = 0; k < a.length; k++) sorted[n++] = bases[b] + a[k];
    });
    sorted.sort();
    const repeats: number[] = [];
    for (let i = 1; i < sorted.length; i++)
      if (sorted[i] === sorted[i - 1] && sorted[i] !== repeats[repeats.length - 1]) repeats.push(sorted[i]);
    const rep = Float64Array.from(repeats);
    const seen = new Set<number>();
    for (let b = ids.length - 1; b >= 0; b--) {
      const a = ids[b];
      for (let k = a.length - 1; k >= 0; k--) {
        const id = bases[b] + a[k];
        if (!has(rep, id)) continue;
        if (seen.has(id)) drop(b, k);
        else seen.add(id);
      }
    }
  }
  return count ? { masks, count } : undefined;
}

/** Which objects a mask keeps: their old indexes, and each old index's new one (-1: dropped). */
function kept(mask: Uint8Array): { keep: Uint32Array; at: Int32Array } {
  const at = new Int32Array(mask.length);
  let n = 0;
  for (let i = 0; i < mask.length; i++) at[i] = mask[i] ? -1 : n++;
  const keep = new Uint32Array(n);
  for (let i = 0; i < mask.length; i++) if (at[i] >= 0) keep[at[i]] = i;
  return { keep, at };
}

type Column = Float64Array | Int32Array | Uint32Array | Uint8Array;

/** The values of `a` at `keep`. */
function pick<T extends Column>(a: T, keep: Uint32Array): T {
  const out = new (a.constructor as new (n: number) => T)(keep.length);
  for (let i = 0; i < keep.length; i++) out[i] = a[keep[i]];
  return out;
}

/** Variable-length lists (`start[i]..start[i + 1]` of a column) of the kept objects: their new start, and a column's values for it. */
function lists(start: Uint32Array, keep: Uint32Array): { start: Uint32Array; take: <T extends Column>(c: T) => T } {
  const s = new Uint32Array(keep.length + 1);
  for (let i = 0; i < keep.length; i++) s[i + 1] = s[i] + start[keep[i] + 1] - start[keep[i]];
  const take = <T extends Column>(c: T): T => {
    const o = new (c.constructor as new (n: number) => T)(s[keep.length]);
    for (let i = 0; i < keep.length; i++) o.set(c.subarray(start[keep[i]], start[keep[i] + 1]), s[i]);
    return o;
  };
  return { start: s, take };
}

/** Tag runs of the kept objects, their owners renumbered. */
function runs(r: TagRuns, at: Int32Array): TagRuns {
  const owner: number[] = [],
    start = [0],
    kv: number[] = [];
  for (let i = 0; i < r.owner.length; i++) {
    const o = at[r.owner[i]];
    if (o < 0) continue;
    owner.push(o);
    for (let p = 2 * r.start[i]; p < 2 * r.start[i + 1]; p++) kv.push(r.kv[p]);
    start.push(kv.length / 2);
  }
  return { owner: Uint32Array.from(owner), start: Uint32Array.from(start), kv: Uint32Array.from(kv) };
}

/** A copy of block `b` without the masked nodes, ways and relations. */
function compact(b: Block, nodes?: Uint8Array, ways?: Uint8Array, relations?: Uint8Array): Block {
  const out = { ...b };
  if (nodes) {
    const { keep, at } = kept(nodes);
    out.nodeId = pick(b.nodeId, keep);
    out.nodeLat = pick(b.nodeLat, keep);
    out.nodeLon = pick(b.nodeLon, keep);
    out.nodeTags = runs(b.nodeTags, at);
  }
  if (ways) {
    const { keep, at } = kept(ways);
    out.wayId = pick(b.wayId, keep);
    const refs = lists(b.wayRefStart, keep);
    out.wayRefStart = refs.start;
    out.wayRef = refs.take(b.wayRef);
    out.wayTags = runs(b.wayTags, at);
  }
  if (relations) {
    const { keep, at } = kept(relations);
    out.relId = pick(b.relId, keep);
    const m = lists(b.relMemStart, keep);
    out.relMemStart = m.start;
    out.relMemType = m.take(b.relMemType);
    out.relMemRef = m.take(b.relMemRef);
    out.relMemRole = m.take(b.relMemRole);
    out.relTags = runs(b.relTags, at);
  }
  return out;
}

/** Whether ascending `a` holds `v` (binary search). */
function has(a: Float64Array, v: number): boolean {
  let lo = 0,
    hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < v) lo = mid + 1;
    else if (a[mid] > v) hi = mid - 1;
    else return true;
  }
  return false;
}
