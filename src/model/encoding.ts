/**
 * How a snapshot stores an array (docs/snapshot-format.md has the byte layouts). A column or a
 * section declares one; the writer encodes with it and records it in the section table, and the
 * reader decodes whatever a section's entry says, so that a new array needs one line each side.
 *
 * - `raw`: the bytes as they are in memory; read back as a view, no copy (floats, hot byte columns).
 * - `fixed`: unsigned integers in the fewest whole bytes (1–4) that hold the largest.
 * - `bits`: integers bit-packed, `width` bits each, less their smallest (`base`): flags, small counts,
 *   indexes into a table of any size (a string index of 90,000 strings takes 17 bits, not 24).
 * - `varint`: unsigned LEB128 varints, for values mostly small with a few large ones.
 * - `delta`: zigzag varints of the differences from the previous value: sorted or near-sorted
 *   integers (ids, offsets, postings), `Float64Array` ids up to 2^51 included.
 * - `delta2`: as `delta`, within interleaved pairs (lon, lat): coordinates along chains.
 * - `steps`: a non-decreasing offsets column as its differences, bit-packed (one row's count each).
 * - `pairs`: interleaved pairs dictionary-coded: the distinct pairs once, then a bit-packed
 *   index per pair (tag key/value pairs, where a few thousand pairs make up millions).
 * - `dict`: floats dictionary-coded by their bits: the distinct values (or runs of `group` values)
 *   once, then a bit-packed index per value (or run); exact to the bit, NaN and -0 included (speeds
 *   per edge and mode, where a few tens of tuples make up millions of floats).
 */
export type Encoding = 'raw' | 'fixed' | 'bits' | 'varint' | 'delta' | 'delta2' | 'steps' | 'pairs' | 'dict';

/**
 * An encoding and whether the encoded bytes are deflated too (`deflate: true`): for sections that
 * deflate well and are decoded once at opening, such as text (a few ms per megabyte inflated).
 */
export interface Codec {
  enc: Encoding;
  deflate?: boolean;
  /** `dict`: values per dictionary entry (the values of one row, e.g. an edge's speed in each mode); 1 if absent. */
  group?: number;
}
