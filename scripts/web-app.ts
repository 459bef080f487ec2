/**
 * Builds the web app (src/web/) into dist/app/ (run by `npm run prepare`; nothing here is
 * committed): `app.js`, the app and MapLibre GL JS bundled by esbuild (an ES module, minified);
 * `maplibre-gl-worker.mjs`, MapLibre's worker, which it starts from the file beside the bundle;
 * `maplibre-gl.css`, `app.css` and `index.html`; Noto Sans Devanagari's WOFF2 files (regular and
 * semibold, from @fontsource/noto-sans-devanagari) and their licence, which app.css names. No key
 * is written into any of them: the server
 * writes the page's key into the page when it serves it (src/http/web-app.ts).
 *
 * Usage: node --import tsx scripts/web-app.ts [OUT_DIR]
 */
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { APP_DIR } from '../src/http/web-app.js';

const WEB = fileURLToPath(new URL('../src/web/', import.meta.url));
const MAPLIBRE = fileURLToPath(new URL('../node_modules/maplibre-gl/dist/', import.meta.url));
const NOTO = fileURLToPath(new URL('../node_modules/@fontsource/noto-sans-devanagari/', import.meta.url));

/** The Devanagari faces app.css declares: the file written, and fontsource's Devanagari subset it is. */
export const FONT_FILES: Record<string, string> = {
  'noto-sans-devanagari-400.woff2': 'files/noto-sans-devanagari-devanagari-400-normal.woff2',
  'noto-sans-devanagari-600.woff2': 'files/noto-sans-devanagari-devanagari-600-normal.woff2',
  'noto-sans-devanagari-OFL.txt': 'LICENSE',
};

/** What was built: the files and their sizes in bytes. */
export interface WebAppBuild {
  dir: string;
  files: Record<string, number>;
}

/** Builds the app into `out` (written beside it and renamed into place: never half-built). */
export async function buildWebApp(out = APP_DIR): Promise<WebAppBuild> {
  const dir = out.replace(/\/$/, '');
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  await build({
    entryPoints: [join(WEB, 'main.ts')],
    outfile: join(tmp, 'app.js'),
    bundle: true,
    format: 'esm', // keeps import.meta.url, by which MapLibre finds its worker
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'eof', // MapLibre's BSD notice
    logLevel: 'warning',
  });
  await copyFile(join(MAPLIBRE, 'maplibre-gl-worker.mjs'), join(tmp, 'maplibre-gl-worker.mjs'));
  await copyFile(join(MAPLIBRE, 'maplibre-gl.css'), join(tmp, 'maplibre-gl.css'));
  await copyFile(join(WEB, 'app.css'), join(tmp, 'app.css'));
  await copyFile(join(WEB, 'index.html'), join(tmp, 'index.html'));
  for (const [name, from] of Object.entries(FONT_FILES)) await copyFile(join(NOTO, from), join(tmp, name));
  // The old build moved aside, the new one renamed in, then the old removed: a server starting
  // meanwhile finds one build or the other, not half of one.
  const old = `${dir}.old-${process.pid}`;
  await mkdir(dirname(dir), { recursive: true });
  await rename(dir, old).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  await rename(tmp, dir);
  await rm(old, { recursive: true, force: true });
  const files: Record<string, number> = {};
  for (const name of ['index.html', 'app.js', 'app.css', 'maplibre-gl.css', 'maplibre-gl-worker.mjs', ...Object.keys(FONT_FILES)])
    files[name] = (await stat(join(dir, name))).size;
  return { dir, files };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t0 = performance.now();
  const { dir, files } = await buildWebApp(process.argv[2]);
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  process.stderr.write(
    `web app: ${Object.entries(files)
      .map(([f, n]) => `${f} ${kb(n)}`)
      .join(', ')} in ${((performance.now() - t0) / 1000).toFixed(1)} s → ${dir}\n`,
  );
}
