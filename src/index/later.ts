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

/** Where `lazyFields` keeps which fields are made: on the prototype it gives the object. */
const MADE = Symbol('made');

/**
 * `base` with fields `keys`, each made by `make(key)` when first read, then kept; writing one
 * gives it instead; a maker that throws is called again at the next read. For plain objects whose
 * readers should not change (a place table's columns): code that reads `t.coords` stays as it is.
 * The fields are accessors on a prototype of the object's own, each value held in its accessor's
 * closure: defined one by one on the object itself, they turned it into a dictionary (V8's slow
 * properties), and every column read of every query into a hash lookup.
 */
export function lazyFields<O extends object, K extends keyof O & string>(base: Omit<O, K>, keys: readonly K[], make: (key: K) => O[K]): O {
  const made = new Set<PropertyKey>();
  const proto: object = {};
  for (const key of keys) {
    let value: O[K] | undefined;
    let pending = true;
    Object.defineProperty(proto, key, {
      enumerable: true,
      get: () => {
        if (pending) {
          value = make(key);
          pending = false;
          made.add(key);
        }
        return value;
      },
      set: (v: O[K]) => {
        value = v;
        pending = false;
        made.add(key);
      },
    });
  }
  Object.defineProperty(proto, MADE, { value: made });
  return Object.assign(Object.create(proto) as O, base);
}

/** Whether field `key` of `obj` has been made (`lazyFields`), or is not one made later. */
export function isMade(obj: object, key: PropertyKey): boolean {
  const made = (obj as { [MADE]?: Set<PropertyKey> })[MADE];
  if (made) return made.has(key);
  return Object.getOwnPropertyDescriptor(obj, key)?.get === undefined;
}
