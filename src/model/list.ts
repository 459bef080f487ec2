type Typed = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;
type TypedCtor<T extends Typed> = { new (n: number): T };

// `List.kind`: the element type, in the order of `Typed`
const F64 = 0,
  F32 = 1,
  I32 = 2,
  U32 = 3;

/**
 * A typed array that grows by doubling, for decoding lists of unknown length
 * without one JS number object per element.
 */
export class List<T extends Typed> {
  /** The backing array; only the first `length` elements are set. */
  data: T;
  /** Number of elements pushed. */
  length = 0;
  private readonly Type: TypedCtor<T>;
  private readonly kind: number;

  constructor(Type: TypedCtor<T>, capacity = 1024) {
    this.Type = Type;
    this.data = new Type(capacity);
    const kinds: unknown[] = [Float64Array, Float32Array, Int32Array, Uint32Array, Uint8Array];
    this.kind = kinds.indexOf(Type);
  }

  /** Append one value. */
  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    // One store per element type: a single `this.data[i] = v` sees every kind of typed array
    // the lists hold and turns megamorphic, a fifth of a PBF load's main-thread time.
    const i = this.length++;
    switch (this.kind) {
      case F64:
        (this.data as Float64Array)[i] = v;
        break;
      case F32:
        (this.data as Float32Array)[i] = v;
        break;
      case I32:
        (this.data as Int32Array)[i] = v;
        break;
      case U32:
        (this.data as Uint32Array)[i] = v;
        break;
      default:
        (this.data as Uint8Array)[i] = v;
    }
  }

  /** Append every value of `values`, with one capacity check for all. */
  append(values: readonly number[]): void {
    const n = values.length;
    if (this.length + n > this.data.length) this.grow(this.length + n);
    const data = this.data,
      at = this.length;
    for (let i = 0; i < n; i++) data[at + i] = values[i];
    this.length = at + n;
  }

  /** Make room for `n` more elements. */
  reserve(n: number): void {
    if (this.length + n > this.data.length) this.grow(this.length + n);
  }

  /** Uses `data` as the (empty) backing array. */
  adopt(data: T): void {
    this.data = data;
    this.length = 0;
  }

  /** The pushed elements in a buffer of their own: the backing array itself when it is full (the list then starts afresh), else a copy. */
  take(): T {
    if (this.length !== this.data.length) return this.copy();
    const data = this.data;
    this.data = new this.Type(16);
    this.length = 0;
    return data;
  }

  /** A trimmed copy of the pushed elements, owning its buffer. */
  copy(): T {
    return this.data.slice(0, this.length) as T;
  }

  /**
   * The pushed elements as a view of the backing array, no copy. For a list made big up front:
   * the pages past its length that were never written cost no memory, and a copy would cost a
   * second one of it until collected.
   */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }

  private grow(min: number): void {
    let cap = this.data.length * 2 || 16;
    while (cap < min) cap *= 2;
    const next = new this.Type(cap);
    next.set(this.data as never);
    this.data = next;
  }
}
