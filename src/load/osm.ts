import type { Block, TagRuns } from './block.js';
import { BlockIds } from './ids.js';

/**
 * The decoded blocks of a file with id lookup across them: what the place
 * builder reads ways' nodes and relations' member ways from. The blocks stay as
 * decoded: joining tens of millions of nodes into one array would cost a copy and
 * twice the memory for nothing.
 */
export class Osm {
  readonly blocks: Block[];
  readonly nodes: BlockIds;
  readonly ways: BlockIds;
  readonly relations: number;

  constructor(blocks: Block[]) {
    this.blocks = blocks;
    this.nodes = new BlockIds(blocks.map((b) => b.nodeId));
    this.ways = new BlockIds(blocks.map((b) => b.wayId));
    this.relations = blocks.reduce((n, b) => n + b.relId.length, 0);
  }

  /** Appends node `id`'s lon and lat (1e-7 degrees) to `out`; false when the node is absent. */
  coord(id: number, out: number[]): boolean {
    if (!this.nodes.find(id)) return false;
    const b = this.blocks[this.nodes.block];
    out.push(b.nodeLon[this.nodes.index], b.nodeLat[this.nodes.index]);
    return true;
  }

  /** The node ids of way `id`, or undefined when the way is absent. */
  wayRefs(id: number): Float64Array | undefined {
    if (!this.ways.find(id)) return undefined;
    const b = this.blocks[this.ways.block];
    const w = this.ways.index;
    return b.wayRef.subarray(b.wayRefStart[w], b.wayRefStart[w + 1]);
  }

  /** Calls `fn(block, blockIndex, runs, i)` for every object of a kind whose tags were kept, in file order. */
  eachTagged(kind: 0 | 1 | 2, fn: (b: Block, bi: number, runs: TagRuns, i: number) => void): void {
    this.blocks.forEach((b, bi) => {
      const runs = kind === 0 ? b.nodeTags : kind === 1 ? b.wayTags : b.relTags;
      for (let i = 0; i < runs.owner.length; i++) fn(b, bi, runs, i);
    });
  }
}
