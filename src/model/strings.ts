/**
 * A deduplicated string table being built: each distinct string once, index 0 the empty
 * string, as the place table and the road graph store their strings.
 */
export class StringTable {
  /** The strings by index. */
  readonly list: string[] = [''];
  private readonly ids = new Map<string, number>([['', 0]]);

  /** The index of `s`, added at the end the first time. */
  intern(s: string): number {
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.ids.set(s, i);
    }
    return i;
  }
}
