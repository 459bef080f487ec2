import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** Every import specifier (static, dynamic, re-export) of a TypeScript source. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm,
  )) {
    out.push((m[1] ?? m[2] ?? m[3])!);
  }
  return out;
}

/** The files and packages reachable from `entry` through imports. */
function graph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const s of specifiers(file)) {
      if (s.startsWith('.')) todo.push(join(dirname(file), s.replace(/\.js$/, '.ts')));
      else packages.add(s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!);
    }
  }
  return { files, packages };
}

describe('the HTTP adapter is optional: the core never loads it', () => {
  it('src/index.ts reaches no file of src/http and no HTTP or Redis package', () => {
    const { files, packages } = graph(join(src, 'index.ts'));
    expect(files.size).toBeGreaterThan(5); // the walk does follow imports
    expect([...files].map((f) => relative(src, f)).filter((f) => f.startsWith('http/') || f === 'cli/serve.ts')).toEqual([]);
    for (const p of ['hono', '@hono/node-server', 'ioredis']) expect(packages.has(p)).toBe(false);
  });

  it('src/http/node.ts does reach Hono, the Node server, Redis and the core (the walk can see them)', () => {
    const { files, packages } = graph(join(src, 'http/node.ts'));
    for (const p of ['hono', '@hono/node-server', 'ioredis', 'node:http', 'node:fs']) expect(packages.has(p)).toBe(true);
    expect([...files].some((f) => relative(src, f) === 'core.ts' || relative(src, f).startsWith('query/'))).toBe(true);
  });

  it('src/http/index.ts (the app, for any runtime) reaches no Node built-in, no Node server, no Redis, no loader', () => {
    const { files, packages } = graph(join(src, 'http/index.ts'));
    expect(packages.has('hono')).toBe(true);
    expect([...packages].filter((p) => p.startsWith('node:') || ['@hono/node-server', 'ioredis'].includes(p))).toEqual([]);
    // beyond src/http/, only what the browser core (src/core.ts) reaches itself, the map's
    // styles, glyphs and sprites (src/map/), the tile schema's layer fields for TileJSON
    // (src/tiles/, src/osm/) and the package's version for /health: Web APIs only too, checked
    // by the packages above
    const core = graph(join(src, 'core.ts')).files;
    const allowed = (f: string) => /^(http|map|tiles|osm)\//.test(f) || f === 'version.ts';
    expect([...files].map((f) => relative(src, f)).filter((f) => !allowed(f) && !core.has(join(src, f)))).toEqual([]);
    // and of the tile pipeline only the schema's side: not the tiler, which reads PBFs
    expect([...files].map((f) => relative(src, f)).filter((f) => /^tiles\/(tiler|pmtiles|file-source|earth)\.ts$/.test(f))).toEqual([]);
    expect([...files].map((f) => relative(src, f))).not.toContain('index.ts');
  });
});
