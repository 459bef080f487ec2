import type { Block } from './block.js';
import { BlockIds } from './ids.js';

/**
 * The decoded blocks of a file with id lookup across them: what the place
 * builder reads ways' nodes and relations' member ways from. The blocks stay as
 * decoded: joining tens of millions of nodes into one array would cost a copy and
 * twice the memory for nothing.
 */
export class Osm {
  readonly blocks: Block[] = [];
  /** Node and way lookup, made by `indexNodes` / `indexWays` once those blocks are all in. */
  nodes = new BlockIds([]);
  ways = new BlockIds([]);

  /** Adds the next block of the file. */
  add(b: Block): void {
    this.blocks.push(b);
  }

  /** Indexes the nodes of the blocks added so far. */
  indexNodes(): void {
    this.nodes = new BlockIds(
      this.blocks.map((b) => b.nodeId),
      this.blocks.map((b) => b.nodeBase),
    );
  }

  /** Indexes the ways of the blocks added so far. */
  indexWays(): void {
    this.ways = new BlockIds(this.blocks.map((b) => b.wayId));
  }

  /** Number of nodes, ways and relations in the blocks. */
  counts(): { nodes: number; ways: number; relations: number } {
    let nodes = 0,
      ways = 0,
      relations = 0;
    for (const b of this.blocks) {
      nodes += b.nodeId.length;
      ways += b.wayId.length;
      relations += b.relId.length;
    }
    return { nodes, ways, relations };
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
}
