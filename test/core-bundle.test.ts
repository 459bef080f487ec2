/**
 * nepal-places/core bundles for a browser: esbuild (platform browser, which refuses Node
 * built-ins) builds src/core.ts, the bundle names no Node global, and the PBF loader
 * (threads, zlib, the district polygons) stays out of it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleCore, largestInputs, sizes, type CoreBundle } from '../scripts/bundle-size.js';

let min: CoreBundle;

beforeAll(async () => {
  min = await bundleCore(true);
});

const inputs = () => Object.keys(min.metafile.inputs);

describe('the core bundles for a browser', () => {
  it('builds as ESM with every import resolved inside the bundle', () => {
    const out = Object.values(min.metafile.outputs)[0]!;
    expect(out.entryPoint).toBe('src/core.ts');
    expect(out.imports, 'nothing left external').toEqual([]);
    expect(out.exports).toEqual(expect.arrayContaining(['nearby', 'fromSnapshot', 'buildSnapshot', 'InvalidQueryError']));
  });

  it('imports no Node built-in', () => {
    for (const [file, input] of Object.entries(min.metafile.inputs)) {
      for (const i of input.imports)
        expect(i.path, `${file} imports ${i.path}`).not.toMatch(/^node:|^(fs|zlib|worker_threads|os|path|url|buffer|stream)$/);
    }
    expect(min.code.match(/["'`]node:\w+/g) ?? []).toEqual([]);
  });

  it('names no Node global: no process, Buffer or require', () => {
    // `globalThis.process?.env` (a guarded property read) is allowed; a bare `process`
    // is a ReferenceError in a browser. What reads the global is `process` before a property
    // access; a key or method named `process` (zod has both) is no reference to it
    expect(min.code.match(/(?<![\w$.])process(?=\s*(\?\.|\.|\[))/g) ?? []).toEqual([]);
    expect(min.code.match(/(?<![\w$.])Buffer\b/g) ?? []).toEqual([]);
    expect(min.code.match(/(?<![\w$.])require\(/g) ?? []).toEqual([]);
    expect(min.code.includes('__require'), "esbuild's require shim").toBe(false);
  });

  it('leaves the PBF loader out', () => {
    expect(inputs().filter((f) => f.startsWith('src/load/') || f.startsWith('src/ingest/') || f === 'src/data.ts')).toEqual([]);
    expect(inputs().filter((f) => f.startsWith('src/address/') || /node_modules\/(pbf|nepal-geojson)\//.test(f))).toEqual([]);
    // (no string search for PBF words: fromSnapshot names an OSM PBF to say what it was given)
    expect(min.code.includes('worker_threads'), 'worker_threads').toBe(false);
  });

  it('has a size: gzip below minified, and the inputs that weigh most', () => {
    const s = sizes(min.code);
    expect(s.bytes).toBeGreaterThan(10_000);
    expect(s.gzip).toBeGreaterThan(0);
    expect(s.gzip).toBeLessThan(s.bytes);
    const top = largestInputs(min.metafile, 5);
    expect(top).toHaveLength(5);
    for (let i = 1; i < top.length; i++) expect(top[i]!.bytes).toBeLessThanOrEqual(top[i - 1]!.bytes);
    console.log(
      `core bundle: ${s.bytes} B minified, ${s.gzip} B min+gzip; largest: ${top.map((t) => `${t.input} ${t.bytes} B`).join(', ')}`,
    );
  });
});
