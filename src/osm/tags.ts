/** A way's or node's tags as a lookup: `get(key)` → its value, or undefined. */
export type Get = (key: string) => string | undefined;
