/** The part of opentype.js's (untyped) API the asset build uses. */
declare module 'opentype.js' {
  interface PathCommand {
    type: 'M' | 'L' | 'Q' | 'C' | 'Z';
    x: number;
    y: number;
    x1: number;
    y1: number;
    x2: number;
    y2: number;
  }
  interface Glyph {
    index: number;
    advanceWidth?: number;
    getPath(x: number, y: number, fontSize: number): { commands: PathCommand[] };
  }
  interface Font {
    unitsPerEm: number;
    ascender: number;
    descender: number;
    glyphs: { get(index: number): Glyph };
    tables: { cmap: { glyphIndexMap: Record<string, number> } };
  }
  const opentype: { parse(buffer: ArrayBuffer): Font };
  export default opentype;
}
