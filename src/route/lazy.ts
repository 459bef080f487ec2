/**
 * An array of `n` items, item i made by `make(i)` when first read and then kept; writing an item
 * replaces its maker. Why: a snapshot's router has four modes whose graphs and hierarchies take
 * seconds to make at Nepal scale, most of opening it, while an app may route by one mode only;
 * made on first use, they cost an open nothing, and code that reads `modes[m]` stays as it is.
 * A maker that throws is called again at the next read (and throws again).
 */
export function lazyItems<T>(n: number, make: (i: number) => T, onMade?: (i: number) => void): T[] {
  const items: T[] = [];
  const keep = (i: number, value: T) => {
    Object.defineProperty(items, i, { value, writable: true, configurable: true, enumerable: true });
    onMade?.(i);
  };
  for (let i = 0; i < n; i++) {
    Object.defineProperty(items, i, {
      configurable: true,
      enumerable: true,
      get: () => {
        const value = make(i);
        keep(i, value);
        return value;
      },
      set: (value: T) => keep(i, value),
    });
  }
  return items;
}
