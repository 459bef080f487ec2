/**
 * The app on an edge runtime: esbuild bundles a worker (platform browser, conditions workerd,
 * worker, browser, as Cloudflare's tooling does) that imports `nepal-places/http` and
 * `nepal-places/core` through the package's own exports map, with a snapshot of the fixture
 * as its data. The bundle then runs in a V8 context holding Web APIs only (no process, Buffer,
 * require or Node module), and answers requests through `app.fetch`.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { build, type Plugin } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, nearby, search, type PlaceIndex } from '../src/index.js';
import { toWire } from '../src/http/envelope.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const CONDITIONS = ['workerd', 'worker', 'browser'];
const AT = Date.parse('2026-11-21T12:15:00Z'); // 18:00 NPT
const key = token('w', { allowedOrigins: ['https://app.example'] });

// `nepal-places/...` resolved by the package's exports map under CONDITIONS (as a bundler
// resolving the installed package would), from dist/ to the TypeScript source it is built from.
const selfReference: Plugin = {
  name: 'nepal-places-exports',
  setup(b) {
    const exports = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<string, unknown>;
    const pick = (entry: unknown): string => {
      if (typeof entry === 'string') return entry;
      for (const [condition, target] of Object.entries(entry as Record<string, unknown>)) {
        if (condition === 'default' || condition === 'import' || CONDITIONS.includes(condition)) return pick(target);
      }
      throw new Error(`no export for ${CONDITIONS}`);
    };
    b.onResolve({ filter: /^nepal-places(\/|$)/ }, (args) => {
      const target = pick(exports[`.${args.path.slice('nepal-places'.length)}`]);
      picked.push([args.path, target]);
      return { path: join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')) };
    });
  },
};
const picked: [string, string][] = [];

let index: PlaceIndex;
let code: string;
let inputs: string[];
let worker: { fetch(request: Request): Promise<Response> };
let lines: string[];

beforeAll(async () => {
  index = await coreIndex();
  const dir = await mkdtemp(join(tmpdir(), 'np-edge-'));
  await writeFile(join(dir, 'kathmandu.places'), buildSnapshot(index));
  await writeFile(
    join(dir, 'worker.ts'),
    `
    import { createApp } from 'nepal-places/http';
    import { fromSnapshot } from 'nepal-places/core';
    import snapshot from './kathmandu.places';
    const app = createApp({
      index: fromSnapshot(snapshot),
      tokens: ${JSON.stringify([key])},
      now: () => ${AT},
      log: (line) => globalThis.logged.push(line),
    });
    export default { fetch: (request) => app.fetch(request) };
  `,
  );
  const out = await build({
    entryPoints: [join(dir, 'worker.ts')],
    bundle: true,
    platform: 'browser',
    conditions: CONDITIONS,
    format: 'iife',
    target: 'es2022', // (esnext would decode the snapshot with Uint8Array.fromBase64, which Node 20 lacks)
    globalName: 'worker',
    loader: { '.places': 'binary' },
    plugins: [selfReference],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  code = out.outputFiles[0]!.text;
  inputs = Object.keys(out.metafile.inputs);
  // Web APIs only: what a worker runtime offers, and nothing of Node
  const web = {
    Request,
    Response,
    Headers,
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    crypto,
    atob,
    btoa,
    console,
    performance,
    setTimeout,
    clearTimeout,
    AbortController,
    AbortSignal,
    Event,
    EventTarget,
    ReadableStream,
    WritableStream,
    TransformStream,
    CompressionStream,
    DecompressionStream,
    Blob,
    structuredClone,
    queueMicrotask,
    navigator: { userAgent: 'Cloudflare-Workers' },
    logged: [] as string[],
  };
  const context = createContext(web);
  runInContext(code, context);
  worker = (context as unknown as { worker: { default: typeof worker } }).worker.default;
  lines = web.logged;
}, 60_000);

describe('the app bundles for a worker and runs on Web APIs alone', () => {
  it('resolves nepal-places/http to the runtime-neutral entry under the worker conditions', () => {
    expect(picked).toEqual([
      ['nepal-places/http', './dist/http/index.js'],
      ['nepal-places/core', './dist/core.js'],
    ]);
    const mine = inputs.filter((f) => f.startsWith('src/'));
    expect(mine).toEqual(expect.arrayContaining(['src/http/app.ts', 'src/http/keys.ts', 'src/snapshot/read.ts']));
    for (const f of ['src/http/server.ts', 'src/http/redis-quota.ts', 'src/http/tokens-file.ts', 'src/load/load.ts', 'src/index.ts']) {
      expect(mine).not.toContain(f);
    }
    expect(inputs.filter((f) => /node_modules\/(@hono\/node-server|ioredis)\//.test(f))).toEqual([]);
  });

  it('names no Node module or global', () => {
    expect(code.match(/["'`]node:\w+/g) ?? []).toEqual([]);
    // (a property or method of that name, as zod's JSON Schema generator has, is not the global;
    // nor is `process()`, which its comments name)
    expect(code.match(/(?<![\w$.])(process|Buffer)\b(?!\s*:)(?!\([^)]*\)\s*\{)(?!\(\))/g) ?? []).toEqual([]);
    expect(code.match(/(?<![\w$.])require\(/g) ?? []).toEqual([]);
  });

  it('answers /search/nearby from the snapshot as nearby() does on the PBF', async () => {
    const query = { type: 'eat', lat: THAMEL.lat, lon: THAMEL.lon, radius: 2, limit: 7, isOpen: true };
    const url = `https://edge.example/api/v1/search/nearby?type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=2&limit=7&isOpen=true&key=${key.key}`;
    const r = await worker.fetch(new Request(url, { headers: { Origin: 'https://app.example' } }));
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const body = (await r.json()) as { status: number; message: string; data: unknown[] };
    const expected = JSON.parse(JSON.stringify(nearby(index, { ...query, at: new Date(AT) }).map(toWire)));
    expect(expected.length).toBeGreaterThan(0);
    expect(body).toMatchObject({ status: 200, message: 'Success' });
    expect(body.data).toEqual(expected);
    expect(lines.at(-1)).toMatch(/ GET \/api\/v1\/search\/nearby\?type=eat&\S+ 200 \d+\.\dms key=#[0-9a-f]{8}$/);
    expect(lines.join('\n')).not.toContain(key.key);
  });

  it('answers a key by header, search, errors as envelopes and gzip, all on Web APIs', async () => {
    const s = await worker.fetch(new Request('https://edge.example/api/v1/search?q=thamel&limit=3', { headers: { 'X-API-Key': key.key } }));
    expect(s.status).toBe(200);
    expect(((await s.json()) as { data: unknown[] }).data).toEqual(JSON.parse(JSON.stringify(search(index, { q: 'thamel', limit: 3 }))));
    const denied = await worker.fetch(new Request('https://edge.example/api/v1/reverse?lat=1&lon=1'));
    expect([denied.status, ((await denied.json()) as { message: string }).message]).toEqual([401, expect.stringMatching(/^key: missing/)]);
    const doc = await worker.fetch(new Request('https://edge.example/api/v1/openapi.json', { headers: { 'Accept-Encoding': 'gzip' } }));
    expect(doc.headers.get('content-encoding')).toBe('gzip');
    const text = await new Response(doc.body!.pipeThrough(new DecompressionStream('gzip'))).text();
    expect(JSON.parse(text).servers).toEqual([{ url: '/api/v1' }]);
  });
});
