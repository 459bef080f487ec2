/**
 * The sprite sheets of the map styles: one per style (its POI colours differ), at 1x and @2x,
 * holding every icon name the basemaps layers ask for. POI icons are Maki's (`@mapbox/maki`, CC0)
 * SVG paths, the rest (one-way arrow, town dots, road shields) are drawn from a few shapes; all
 * go through src/map/raster.ts and are written as PNG with pngjs.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { namedFlavor } from '@protomaps/basemaps';
import { PNG } from 'pngjs';
import svgpath from 'svgpath';
import { rasterize, type Coverage, type PathCommand } from '../src/map/raster.js';
import { STYLES } from '../src/map/style.js';

const require = createRequire(import.meta.url);

/**
 * POI kinds of the basemaps `pois` layer (its icon-image is the kind, `station` → `train_station`),
 * the Maki icon drawn for each and the flavor colour its label has there.
 */
export const POI_ICONS: Record<string, { maki: string; colour: 'green' | 'lapis' | 'slategray' | 'blue' | 'tangerine' | 'pink' }> = {
  beach: { maki: 'beach', colour: 'green' },
  forest: { maki: 'park-alt1', colour: 'green' },
  marina: { maki: 'harbor', colour: 'green' },
  park: { maki: 'park', colour: 'green' },
  peak: { maki: 'mountain', colour: 'green' },
  zoo: { maki: 'zoo', colour: 'green' },
  garden: { maki: 'garden', colour: 'green' },
  bench: { maki: 'picnic-site', colour: 'green' },
  aerodrome: { maki: 'airport', colour: 'lapis' },
  train_station: { maki: 'rail', colour: 'lapis' },
  bus_stop: { maki: 'bus', colour: 'lapis' },
  ferry_terminal: { maki: 'ferry', colour: 'lapis' },
  stadium: { maki: 'stadium', colour: 'slategray' },
  university: { maki: 'college', colour: 'slategray' },
  library: { maki: 'library', colour: 'slategray' },
  school: { maki: 'school', colour: 'slategray' },
  animal: { maki: 'veterinary', colour: 'slategray' },
  toilets: { maki: 'toilet', colour: 'slategray' },
  drinking_water: { maki: 'drinking-water', colour: 'slategray' },
  post_office: { maki: 'post', colour: 'slategray' },
  building: { maki: 'building', colour: 'slategray' },
  townhall: { maki: 'town-hall', colour: 'slategray' },
  supermarket: { maki: 'grocery', colour: 'blue' },
  convenience: { maki: 'shop', colour: 'blue' },
  books: { maki: 'library', colour: 'blue' },
  beauty: { maki: 'hairdresser', colour: 'blue' },
  electronics: { maki: 'mobile-phone', colour: 'blue' },
  clothes: { maki: 'clothing-store', colour: 'blue' },
  restaurant: { maki: 'restaurant', colour: 'tangerine' },
  fast_food: { maki: 'fast-food', colour: 'tangerine' },
  cafe: { maki: 'cafe', colour: 'tangerine' },
  bar: { maki: 'bar', colour: 'tangerine' },
  attraction: { maki: 'attraction', colour: 'pink' },
  museum: { maki: 'museum', colour: 'pink' },
  theatre: { maki: 'theatre', colour: 'pink' },
  artwork: { maki: 'art-gallery', colour: 'pink' },
};

/** Road shield families of the `roads_shields` layer: `<prefix><n>char` for refs of 1 to 5 characters. */
export const SHIELDS = ['generic_shield-', 'US:I-', 'NL:S-road-'];
const SHIELD_CHARS = 5;

type Rgb = [number, number, number];

/** One icon: its coverage at a pixel ratio, and the colour it is filled with. */
interface Icon {
  name: string;
  layers: { coverage: Coverage; colour: Rgb; alpha?: number }[];
  width: number;
  height: number;
}

/** Writes `<style>.json/.png` and `<style>@2x.json/.png` for every style into `dir`. */
export async function writeSprites(dir: string): Promise<{ icons: number; sheets: number }> {
  await mkdir(dir, { recursive: true });
  const makiPaths = new Map<string, PathCommand[]>();
  for (const { maki } of Object.values(POI_ICONS)) {
    if (!makiPaths.has(maki)) makiPaths.set(maki, await readMaki(maki));
  }
  let sheets = 0;
  let icons = 0;
  const sprites = new Set(Object.values(STYLES).map((s) => s.sprite));
  for (const sprite of sprites) {
    const flavor = namedFlavor(Object.values(STYLES).find((s) => s.sprite === sprite)!.flavor);
    for (const ratio of [1, 2]) {
      const list = drawIcons(flavor, makiPaths, ratio);
      const { png, index } = pack(list, ratio);
      const suffix = ratio === 1 ? '' : `@${ratio}x`;
      await writeFile(join(dir, `${sprite}${suffix}.png`), png);
      await writeFile(join(dir, `${sprite}${suffix}.json`), JSON.stringify(index));
      sheets += 2;
      icons = list.length;
    }
  }
  return { icons, sheets };
}

async function readMaki(name: string): Promise<PathCommand[]> {
  const svg = await readFile(require.resolve(`@mapbox/maki/icons/${name}.svg`), 'utf8');
  const d = /<path[^>]*\sd="([^"]+)"/.exec(svg)?.[1];
  if (!d) throw new Error(`@mapbox/maki/icons/${name}.svg: no path`);
  return svgCommands(d.replace(/&#x[0-9A-Fa-f]+;/g, ' '));
}

/** An SVG path's `d` as absolute move, line and curve commands (arcs become curves). */
export function svgCommands(d: string): PathCommand[] {
  const out: PathCommand[] = [];
  let x = 0;
  let y = 0;
  svgpath(d)
    .abs()
    .unarc()
    .unshort()
    .iterate((seg) => {
      const [op, ...a] = seg as [string, ...number[]];
      if (op === 'M' || op === 'L') out.push({ type: op, x: (x = a[0]!), y: (y = a[1]!) });
      else if (op === 'H') out.push({ type: 'L', x: (x = a[0]!), y });
      else if (op === 'V') out.push({ type: 'L', x, y: (y = a[0]!) });
      else if (op === 'Q') out.push({ type: 'Q', x1: a[0]!, y1: a[1]!, x: (x = a[2]!), y: (y = a[3]!) });
      else if (op === 'C') out.push({ type: 'C', x1: a[0]!, y1: a[1]!, x2: a[2]!, y2: a[3]!, x: (x = a[4]!), y: (y = a[5]!) });
      else if (op === 'Z' || op === 'z') out.push({ type: 'Z' });
      else throw new Error(`unexpected SVG path command ${op}`);
    });
  return out;
}

function drawIcons(flavor: ReturnType<typeof namedFlavor>, maki: Map<string, PathCommand[]>, ratio: number): Icon[] {
  const icons: Icon[] = [];
  const pois = flavor.pois!;
  // POI icons: Maki's 15 × 15 grid, one pixel of margin, at `ratio`.
  for (const [name, { maki: m, colour }] of Object.entries(POI_ICONS)) {
    const size = 17 * ratio;
    const commands = scale(maki.get(m)!, ratio, ratio, ratio);
    icons.push({ name, width: size, height: size, layers: [{ coverage: rasterize(commands, size, size), colour: hex(pois[colour]) }] });
  }
  const text = hex(flavor.city_label);
  const halo = hex(flavor.city_label_halo);
  // Towns: a ring with a dot; the capital: a star in a ring.
  const dot = 12 * ratio;
  const c = dot / 2;
  icons.push({
    name: 'townspot',
    width: dot,
    height: dot,
    layers: [
      { coverage: rasterize(circle(c, c, 5.5 * ratio), dot, dot), colour: halo },
      { coverage: rasterize([...circle(c, c, 4.5 * ratio), ...circle(c, c, 3 * ratio, true)], dot, dot), colour: text },
      { coverage: rasterize(circle(c, c, 1.8 * ratio), dot, dot), colour: text },
    ],
  });
  const star = 16 * ratio;
  icons.push({
    name: 'capital',
    width: star,
    height: star,
    layers: [
      { coverage: rasterize(circle(star / 2, star / 2, 7.5 * ratio), star, star), colour: halo },
      {
        coverage: rasterize([...circle(star / 2, star / 2, 6.5 * ratio), ...circle(star / 2, star / 2, 5.2 * ratio, true)], star, star),
        colour: text,
      },
      { coverage: rasterize(starPath(star / 2, star / 2, 4.6 * ratio, 1.9 * ratio), star, star), colour: text },
    ],
  });
  // The one-way arrow points up: the layer turns it 90° to run along the road.
  const arrowW = 8 * ratio;
  const arrowH = 10 * ratio;
  const arrow: PathCommand[] = scale(
    [
      { type: 'M', x: 4, y: 0.5 },
      { type: 'L', x: 7.5, y: 5 },
      { type: 'L', x: 5, y: 5 },
      { type: 'L', x: 5, y: 9.5 },
      { type: 'L', x: 3, y: 9.5 },
      { type: 'L', x: 3, y: 5 },
      { type: 'L', x: 0.5, y: 5 },
      { type: 'Z' },
    ],
    ratio,
    ratio,
    0,
  );
  icons.push({
    name: 'arrow',
    width: arrowW,
    height: arrowH,
    layers: [{ coverage: rasterize(arrow, arrowW, arrowH), colour: hex(flavor.roads_label_minor), alpha: 0.8 }],
  });
  // Shields: a rounded box wide enough for the ref at the layer's 8 px text.
  const fills: Record<string, Rgb> = {
    'generic_shield-': hex(flavor.major),
    'US:I-': [0x1d, 0x4f, 0x91],
    'NL:S-road-': [0xf6, 0xc3, 0x44],
  };
  for (const prefix of SHIELDS) {
    for (let n = 1; n <= SHIELD_CHARS; n++) {
      const w = (10 + 6 * n) * ratio;
      const h = 16 * ratio;
      icons.push({
        name: `${prefix}${n}char`,
        width: w,
        height: h,
        layers: [
          {
            coverage: rasterize(roundRect(0.5 * ratio, 0.5 * ratio, w - ratio, h - ratio, 3 * ratio), w, h),
            colour: hex(flavor.major_casing_early),
          },
          {
            coverage: rasterize(roundRect(1.5 * ratio, 1.5 * ratio, w - 3 * ratio, h - 3 * ratio, 2.2 * ratio), w, h),
            colour: fills[prefix]!,
          },
        ],
      });
    }
  }
  return icons;
}

// Shelf-packs the icons into one RGBA sheet and its index (MapLibre's sprite JSON).
function pack(
  icons: Icon[],
  ratio: number,
): { png: Buffer; index: Record<string, { x: number; y: number; width: number; height: number; pixelRatio: number }> } {
  const maxWidth = 256 * ratio;
  const gap = ratio; // keeps neighbours out of each other's linear sampling
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  const placed: { icon: Icon; x: number; y: number }[] = [];
  for (const icon of [...icons].sort((a, b) => b.height - a.height || a.name.localeCompare(b.name))) {
    if (x + icon.width > maxWidth) {
      x = 0;
      y += rowHeight + gap;
      rowHeight = 0;
    }
    placed.push({ icon, x, y });
    x += icon.width + gap;
    rowHeight = Math.max(rowHeight, icon.height);
  }
  const png = new PNG({ width: maxWidth, height: y + rowHeight });
  png.data.fill(0);
  const index: Record<string, { x: number; y: number; width: number; height: number; pixelRatio: number }> = {};
  for (const { icon, x: ox, y: oy } of placed) {
    for (const layer of icon.layers) {
      const a0 = layer.alpha ?? 1;
      for (let j = 0; j < icon.height; j++) {
        for (let i = 0; i < icon.width; i++) {
          const a = layer.coverage.data[j * icon.width + i]! * a0;
          if (a === 0) continue;
          const p = ((oy + j) * png.width + ox + i) * 4;
          over(png.data, p, layer.colour, a);
        }
      }
    }
    index[icon.name] = { x: ox, y: oy, width: icon.width, height: icon.height, pixelRatio: ratio };
  }
  return { png: PNG.sync.write(png), index };
}

// Source-over compositing of a colour at alpha `a` onto straight-alpha RGBA.
function over(data: Buffer, p: number, [r, g, b]: Rgb, a: number): void {
  const da = data[p + 3]! / 255;
  const oa = a + da * (1 - a);
  const mix = (s: number, d: number) => Math.round((s * a + d * da * (1 - a)) / oa);
  data[p] = mix(r, data[p]!);
  data[p + 1] = mix(g, data[p + 1]!);
  data[p + 2] = mix(b, data[p + 2]!);
  data[p + 3] = Math.round(oa * 255);
}

function hex(colour: string): Rgb {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(colour);
  if (!m) throw new Error(`not a #rrggbb colour: ${colour}`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

function scale(commands: readonly PathCommand[], k: number, dx: number, dy: number): PathCommand[] {
  return commands.map((c) => {
    switch (c.type) {
      case 'Z':
        return c;
      case 'M':
      case 'L':
        return { type: c.type, x: c.x * k + dx, y: c.y * k + dy };
      case 'Q':
        return { type: 'Q', x1: c.x1 * k + dx, y1: c.y1 * k + dy, x: c.x * k + dx, y: c.y * k + dy };
      case 'C':
        return { type: 'C', x1: c.x1 * k + dx, y1: c.y1 * k + dy, x2: c.x2 * k + dx, y2: c.y2 * k + dy, x: c.x * k + dx, y: c.y * k + dy };
    }
  });
}

// A circle as four cubic arcs; `reverse` winds it the other way, to cut a hole.
function circle(cx: number, cy: number, r: number, reverse = false): PathCommand[] {
  const k = 0.5523 * r;
  const s = reverse ? -1 : 1;
  return [
    { type: 'M', x: cx + r, y: cy },
    { type: 'C', x1: cx + r, y1: cy + s * k, x2: cx + k, y2: cy + s * r, x: cx, y: cy + s * r },
    { type: 'C', x1: cx - k, y1: cy + s * r, x2: cx - r, y2: cy + s * k, x: cx - r, y: cy },
    { type: 'C', x1: cx - r, y1: cy - s * k, x2: cx - k, y2: cy - s * r, x: cx, y: cy - s * r },
    { type: 'C', x1: cx + k, y1: cy - s * r, x2: cx + r, y2: cy - s * k, x: cx + r, y: cy },
    { type: 'Z' },
  ];
}

function starPath(cx: number, cy: number, outer: number, inner: number): PathCommand[] {
  const out: PathCommand[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const t = -Math.PI / 2 + (i * Math.PI) / 5;
    out.push({ type: i ? 'L' : 'M', x: cx + r * Math.cos(t), y: cy + r * Math.sin(t) });
  }
  out.push({ type: 'Z' });
  return out;
}

function roundRect(x: number, y: number, w: number, h: number, r: number): PathCommand[] {
  const k = 0.5523 * r;
  return [
    { type: 'M', x: x + r, y },
    { type: 'L', x: x + w - r, y },
    { type: 'C', x1: x + w - r + k, y1: y, x2: x + w, y2: y + r - k, x: x + w, y: y + r },
    { type: 'L', x: x + w, y: y + h - r },
    { type: 'C', x1: x + w, y1: y + h - r + k, x2: x + w - r + k, y2: y + h, x: x + w - r, y: y + h },
    { type: 'L', x: x + r, y: y + h },
    { type: 'C', x1: x + r - k, y1: y + h, x2: x, y2: y + h - r + k, x, y: y + h - r },
    { type: 'L', x, y: y + r },
    { type: 'C', x1: x, y1: y + r - k, x2: x + r - k, y2: y, x: x + r, y },
    { type: 'Z' },
  ];
}
