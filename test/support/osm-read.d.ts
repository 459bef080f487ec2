/** The part of osm-read's (untyped, CommonJS) API the tests use. */
declare module 'osm-read' {
  interface ParseOptions {
    filePath: string;
    format?: 'pbf' | 'xml';
    node?: (node: any) => void;
    way?: (way: any) => void;
    relation?: (relation: any) => void;
    endDocument?: () => void;
    error?: (err: unknown) => void;
  }
  const osmread: { parse(options: ParseOptions): { pause(): void; resume(): void } };
  export default osmread;
}
