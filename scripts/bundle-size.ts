/**
 * The size of `nepal-places/core` in a browser app: src/core.ts bundled by esbuild for
 * the browser, raw and minified, each also gzipped, plus the inputs that weigh most in
 * the minified bundle.
 *
 *     npm run size
 */
import { build, type Metafile } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The core entry, as the package builds it into dist/core.js. */
export const CORE_ENTRY = fileURLToPath(new URL('../src/core.ts', import.meta.url));

/** One browser bundle of the core: its text and esbuild's account of its inputs. */
export interface CoreBundle {
  code: string;
  metafile: Metafile;
}

/**
 * Bundles the core for a browser (ESM, every dependency inlined). esbuild refuses a
 * Node built-in on this platform, so a build that succeeds imports none.
 */
export async function bundleCore(minify: boolean): Promise<CoreBundle> {
  const r = await build({
    entryPoints: [CORE_ENTRY],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { code: r.outputFiles[0]!.text, metafile: r.metafile };
}

/** Bytes of a string as UTF-8, and gzipped (level 9, as a server would precompress). */
export function sizes(code: string): { bytes: number; gzip: number } {
  const bytes = Buffer.byteLength(code);
  return { bytes, gzip: gzipSync(code, { level: 9 }).length };
}

/** The inputs of a bundle by the bytes they leave in it, largest first. */
export function largestInputs(metafile: Metafile, n: number): { input: string; bytes: number }[] {
  const out = Object.values(metafile.outputs)[0]!;
  return Object.entries(out.inputs)
    .map(([input, v]) => ({ input, bytes: v.bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, n);
}

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

async function main(): Promise<void> {
  const raw = await bundleCore(false);
  const min = await bundleCore(true);
  const r = sizes(raw.code),
    m = sizes(min.code);
  console.log(`core bundle (esbuild, browser, ESM):`);
  console.log(`  raw       ${kB(r.bytes)} (${kB(r.gzip)} gzipped)`);
  console.log(`  minified  ${kB(m.bytes)}`);
  console.log(`  min+gzip  ${kB(m.gzip)}`);
  console.log(`largest inputs, minified:`);
  for (const { input, bytes } of largestInputs(min.metafile, 12)) {
    console.log(`  ${kB(bytes).padStart(9)}  ${((100 * bytes) / m.bytes).toFixed(1).padStart(4)}%  ${input}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
