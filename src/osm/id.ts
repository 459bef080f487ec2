/**
 * The id the API knows an object by: `osmId * 4 + kind` (kind 0 node, 1 way, 2 relation),
 * exact in a double while |osmId| < 2^51 (`snapshot/read.ts` checks that).
 */
export function placeId(osmId: number, kind: number): number {
  return osmId * 4 + kind;
}
