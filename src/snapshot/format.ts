/**
 * The snapshot file layout. A snapshot is
 *
 *     magic (8 bytes) | version u32 | payload length u32 | xxHash32 of the directory u32 | reserved u32
 *     payload: directory length u32 | directory (JSON, UTF-8) | sections, each 8-byte aligned
 *
 * all little-endian, offsets counted from the start of the file. The directory is
 * the section table (name, encoding, element type, offset, length and xxHash32 of each
 * section) and the index's small fields (license, stats, type names). The header's hash
 * covers the directory length and the directory; each section's hash, its stored bytes,
 * checked when the section is first read: opening hashes a few kilobytes, not the file.
 */

/** The first 8 bytes of a snapshot: PNG-style, so a text-mode copy or a truncated header shows. */
export const MAGIC = Uint8Array.of(0x89, 0x4e, 0x50, 0x4c, 0x0d, 0x0a, 0x1a, 0x0a); // \x89 N P L \r \n \x1a \n

/** The format version this code writes and reads. */
export const SNAPSHOT_VERSION = 5;

/** Bytes before the payload. */
export const HEADER_SIZE = 24;

/** Whether bytes begin with the snapshot magic (a file may be detected from its first 8 bytes). */
export function isSnapshot(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC[i]) return false;
  return true;
}
