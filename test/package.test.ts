/**
 * The package as consumers see it: its license files and metadata, and the types a
 * browser build gets (the `browser` condition of `.`), which must offer nothing that
 * only runs in Node.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));

/**
 * The names a module exports, values and types, as the TypeScript checker sees them;
 * with `check`, its program's diagnostics too (a whole type check: slow).
 */
function exportsOf(file: string, options: ts.CompilerOptions = {}, check = false): { names: string[]; errors: string[] } {
  const program = ts.createProgram([`${ROOT}${file}`], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    ...options,
  });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(`${ROOT}${file}`)!)!;
  const errors = check
    ? ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)
    : [];
  return {
    names: checker
      .getExportsOfModule(symbol)
      .map((s) => s.name)
      .sort(),
    errors,
  };
}

describe('license: the code ISC, the data ODbL, opening_hours LGPL-3.0', () => {
  const license = readFileSync(`${ROOT}LICENSE`, 'utf8');

  it('a LICENSE file with the license package.json names', () => {
    expect(pkg.license).toBe('ISC');
    expect(license).toMatch(/^ISC License\n/);
    expect(license).toContain('Permission to use, copy, modify, and/or distribute this software');
  });

  it('says what it does not cover: the OSM data (ODbL) and opening_hours (LGPL-3.0)', () => {
    expect(license).toMatch(/OpenStreetMap contributors[^]*Open Database License 1\.0/);
    const oh = JSON.parse(readFileSync(`${ROOT}node_modules/opening_hours/package.json`, 'utf8'));
    expect(oh.license).toBe('LGPL-3.0-only');
    expect(license).toContain('opening_hours\n  (LGPL-3.0-only)');
  });

  it('the README license section names both, and what bundlers must do', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const section = readme.slice(readme.indexOf('## Data and license'));
    expect(section).toMatch(/Open Database License/);
    expect(section).toMatch(/LGPL-3\.0/);
    expect(section).toMatch(/bundle/i);
  });
});

describe('package.json: what a registry and a bundler read', () => {
  it("the version the HTTP app says (src/version.ts) is package.json's", async () => {
    expect((await import('../src/version.js')).VERSION).toBe(pkg.version);
  });

  it('keywords, sideEffects: false, ESM only, engines', () => {
    expect(pkg.keywords).toEqual(expect.arrayContaining(['nepal', 'openstreetmap', 'geospatial']));
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.type).toBe('module');
    // ESM: import works from Node 20; require() of it needs require(esm), Node >= 20.19
    expect(pkg.engines).toEqual({ node: '>=20' });
    expect(readFileSync(`${ROOT}README.md`, 'utf8')).toMatch(/require\(\)[^\n]*20\.19/);
  });
});

/** The files `npm pack` puts in the tarball (scripts not run: the tree as built). */
function packed(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
}

describe('the tarball: what it ships works on its own', () => {
  const files = packed();
  const shipped = new Set(files);

  it('every source map points at sources the tarball holds', () => {
    const maps = files.filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(readFileSync(`${ROOT}${map}`, 'utf8')) as { sources: string[] };
      for (const s of sources) {
        const path = new URL(s, `file:///${map}`).pathname.slice(1);
        if (!shipped.has(path)) missing.push(`${map} → ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the Node code imports only runtime dependencies (not nepal-geojson, a build-time one)', () => {
    expect(pkg.dependencies['nepal-geojson']).toBeUndefined();
    expect(pkg.devDependencies['nepal-geojson']).toBeDefined();
    const deps = new Set([...Object.keys(pkg.dependencies)]);
    const bad: string[] = [];
    // dist/app/ is the web app, bundled whole for the browser
    for (const f of files.filter((f) => /^dist\/.*\.js$/.test(f) && !f.startsWith('dist/app/'))) {
      // the module's static and dynamic imports, as TypeScript reads them
      for (const { fileName: spec } of ts.preProcessFile(readFileSync(`${ROOT}${f}`, 'utf8'), true, true).importedFiles) {
        if (spec.startsWith('.')) continue;
        if (spec.startsWith('node:')) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!deps.has(name)) bad.push(`${f}: ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("ships the district table the addresses and the map's outline read", () => {
    expect(shipped.has('dist/nepal-districts.bin')).toBe(true);
    expect(existsSync(`${ROOT}dist/nepal-districts.bin`)).toBe(true);
  });

  it('says how to install it while it is not on the registry: a clone, or a tarball of npm pack', () => {
    const quick = readFileSync(`${ROOT}README.md`, 'utf8').split('## Quick start')[1]!.split('\n## ')[0]!;
    expect(quick).toMatch(/npm pack/);
    expect(quick).not.toMatch(/^npm install nepal-places$/m);
  });
});

describe('require() of the ES module works where Node can require(esm)', () => {
  it('the Node entry, as ESM with its packages external, loads with require() here (no top-level await)', async () => {
    const [major, minor] = process.versions.node.split('.').map(Number);
    expect(major > 20 || (major === 20 && minor >= 19), `this test needs Node >= 20.19, runs on ${process.versions.node}`).toBe(true);
    // in tmp/ of the package, so that its packages resolve from node_modules
    const dir = `${ROOT}tmp/require-${process.pid}`;
    mkdirSync(dir, { recursive: true });
    try {
      await build({
        entryPoints: [`${ROOT}src/index.ts`],
        bundle: true,
        format: 'esm',
        platform: 'node',
        packages: 'external',
        outfile: `${dir}/index.mjs`,
        logLevel: 'silent',
      });
      const script = `const m = require(${JSON.stringify(`${dir}/index.mjs`)}); console.log(JSON.stringify([typeof m.loadPbf, typeof m.nearby, typeof m.fromSnapshot]))`;
      const out = execFileSync(process.execPath, ['--no-warnings', '-e', script], { encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual(['function', 'function', 'function']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the browser condition of "." gives the core and its types, nothing Node-only', () => {
  it('maps types and code to the core entry', () => {
    expect(pkg.exports['.'].browser).toEqual({ types: './dist/core.d.ts', default: './dist/core.js' });
    expect(Object.keys(pkg.exports['.'])[0]).toBe('browser'); // conditions match in order
  });

  it('the core exports nothing of the PBF loader: no function, no option type', () => {
    const core = exportsOf('src/core.ts').names;
    const node = exportsOf('src/index.ts').names;
    // what only the Node entry offers, each of which reads files or describes loading one (the
    // routing profiles are an option of loadPbf)
    expect(node.filter((n) => !core.includes(n))).toEqual([
      'DEFAULT_PBF',
      'DEFAULT_PROFILES',
      'LoadOptions',
      'LoadProgress',
      'OSM_LICENSE',
      'ProfileDoc',
      'ProfileError',
      'ProfilesDoc',
      'checkProfiles',
      'loadFile',
      'loadPbf',
      'loadSnapshot',
    ]);
    expect(core.every((n) => node.includes(n))).toBe(true);
  });

  it("the core type-checks with the DOM and without Node's types", { timeout: 120_000 }, () => {
    const { errors, names } = exportsOf('src/core.ts', { lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] }, true);
    expect(errors).toEqual([]);
    expect(names).toContain('fromSnapshot');
  });
});
