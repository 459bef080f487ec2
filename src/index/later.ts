/**
 * A value made by `make` when first asked for (`get`), then kept; `set` gives it instead. Why: a
 * snapshot opened at Nepal scale holds seconds of decoding and checking in parts (a text index,
 * a road graph, a spatial index per type) that an app may never use; made on first use, they cost
 * an open nothing. A maker that throws is called again at the next `get` (and throws again).
 */
export class Later<T> {
  private make: (() => T) | undefined;
  private value: T | undefined;

  constructor(make: () => T) {
    this.make = make;
  }

  /** A value that is made already. */
  static of<T>(value: T): Later<T> {
    const out = new Later<T>(() => value);
    out.set(value);
    return out;
  }

  /** Whether the value has been made (or given). */
  get made(): boolean {
    return this.make === undefined;
  }

  /** The value, made now if it has not been. */
  get(): T {
    if (this.make) {
      this.value = this.make();
      this.make = undefined;
    }
    return this.value as T;
  }

  /** Gives the value, made elsewhere (in steps, say), instead of making it. */
  set(value: T): void {
    this.value = value;
    this.make = undefined;
  }
}

/**
 * Defines `obj[key]` as a value made by `make` when first read, then kept as a plain property;
 * writing it replaces the maker. For plain objects whose readers should not change (a place table's
 * columns): code that reads `t.coords` stays as it is.
 */
export function defineLater<O extends object, K extends keyof O>(obj: O, key: K, make: () => O[K]): void {
  const keep = (value: O[K]) => Object.defineProperty(obj, key, { value, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(obj, key, {
    configurable: true,
    enumerable: true,
    get: () => {
      const value = make();
      keep(value);
      return value;
    },
    set: (value: O[K]) => keep(value),
  });
}

/** Whether `obj[key]` has been made (it is no longer read through its maker). */
export function isMade(obj: object, key: PropertyKey): boolean {
  return Object.getOwnPropertyDescriptor(obj, key)?.get === undefined;
}
