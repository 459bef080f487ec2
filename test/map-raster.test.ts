/**
 * The outline rasteriser and the distance fields drawn from it, against geometry computed
 * another way: polygon areas by the shoelace formula, circle areas by πr², distances to a
 * square by hand.
 */
import { describe, expect, it } from 'vitest';
import { rasterize, type PathCommand } from '../src/map/raster.js';
import { CUTOFF, distanceField, RADIUS } from '../src/map/sdf.js';
import { drawGlyph, encodeGlyphs, fontFor, parseRange } from '../src/map/glyphs.js';
import { PbfReader } from 'pbf';
import { random } from './support/random.js';

const polygon = (points: [number, number][]): PathCommand[] => [
  { type: 'M', x: points[0]![0], y: points[0]![1] },
  ...points.slice(1).map(([x, y]) => ({ type: 'L' as const, x, y })),
  { type: 'Z' },
];

const shoelace = (points: [number, number][]) =>
  Math.abs(points.reduce((s, [x, y], i) => s + x * points[(i + 1) % points.length]![1] - points[(i + 1) % points.length]![0] * y, 0)) / 2;

const sum = (a: Float32Array) => a.reduce((s, v) => s + v, 0);

describe('rasterize: coverage is the exact area of the outline in each pixel', () => {
  it('random triangles: the coverage adds up to the shoelace area', () => {
    const rand = random(12);
    for (let i = 0; i < 200; i++) {
      const pts: [number, number][] = [0, 1, 2].map(() => [1 + rand() * 30, 1 + rand() * 30]);
      const c = rasterize(polygon(pts), 32, 32);
      expect(sum(c.data)).toBeCloseTo(shoelace(pts), 2);
      expect(Math.min(...c.data)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...c.data)).toBeLessThanOrEqual(1);
    }
  });

  it('a square on the pixel grid covers its pixels fully and nothing else', () => {
    const c = rasterize(
      polygon([
        [2, 3],
        [7, 3],
        [7, 9],
        [2, 9],
      ]),
      10,
      12,
    );
    for (let y = 0; y < 12; y++) {
      for (let x = 0; x < 10; x++) expect(c.data[y * 10 + x]).toBe(x >= 2 && x < 7 && y >= 3 && y < 9 ? 1 : 0);
    }
  });

  it('a half-pixel offset gives half-covered edge pixels', () => {
    const c = rasterize(
      polygon([
        [2.5, 2],
        [6.5, 2],
        [6.5, 4],
        [2.5, 4],
      ]),
      8,
      6,
    );
    expect(c.data[2 * 8 + 2]).toBeCloseTo(0.5, 5);
    expect(c.data[2 * 8 + 3]).toBeCloseTo(1, 5);
    expect(c.data[2 * 8 + 6]).toBeCloseTo(0.5, 5);
  });

  it('either winding fills; a contour wound the other way inside another is a hole', () => {
    const outer: [number, number][] = [
      [1, 1],
      [15, 1],
      [15, 15],
      [1, 15],
    ];
    const inner: [number, number][] = [
      [5, 5],
      [5, 11],
      [11, 11],
      [11, 5],
    ];
    expect(sum(rasterize(polygon([...outer].reverse()), 16, 16).data)).toBeCloseTo(196, 3);
    const ring = rasterize([...polygon(outer), ...polygon(inner)], 16, 16);
    expect(sum(ring.data)).toBeCloseTo(196 - 36, 3);
    expect(ring.data[8 * 16 + 8]).toBe(0);
  });

  it('curves are flattened within 0.05 px: a circle of cubic arcs covers πr², short by less than its perimeter × 0.05', () => {
    const r = 10;
    const k = 0.5523 * r;
    const [cx, cy] = [12.3, 11.7];
    const circle: PathCommand[] = [
      { type: 'M', x: cx + r, y: cy },
      { type: 'C', x1: cx + r, y1: cy + k, x2: cx + k, y2: cy + r, x: cx, y: cy + r },
      { type: 'C', x1: cx - k, y1: cy + r, x2: cx - r, y2: cy + k, x: cx - r, y: cy },
      { type: 'C', x1: cx - r, y1: cy - k, x2: cx - k, y2: cy - r, x: cx, y: cy - r },
      { type: 'C', x1: cx + k, y1: cy - r, x2: cx + r, y2: cy - k, x: cx + r, y: cy },
      { type: 'Z' },
    ];
    // (the four-arc cubic circle itself is 0.03% larger than the true one)
    const deficit = Math.PI * r * r * 1.0003 - sum(rasterize(circle, 25, 25).data);
    expect(deficit).toBeGreaterThan(0);
    expect(deficit).toBeLessThan(2 * Math.PI * r * 0.05);
    // a quadratic arch 20 wide and 10 high: Archimedes' 2/3 of its box; its arc is under 30 px long
    const arch: PathCommand[] = [{ type: 'M', x: 2, y: 20 }, { type: 'Q', x1: 12, y1: 0, x: 22, y: 20 }, { type: 'Z' }];
    const archDeficit = (2 / 3) * 20 * 10 - sum(rasterize(arch, 24, 24).data);
    expect(archDeficit).toBeGreaterThan(0);
    expect(archDeficit).toBeLessThan(30 * 0.05);
  });

  it('parts outside the grid are clipped, not wrapped into other rows', () => {
    const c = rasterize(
      polygon([
        [-5, 2],
        [4, 2],
        [4, 6],
        [-5, 6],
      ]),
      8,
      8,
    );
    expect(sum(c.data)).toBeCloseTo(16, 5);
    const right = rasterize(
      polygon([
        [6, 2],
        [14, 2],
        [14, 6],
        [6, 6],
      ]),
      8,
      8,
    );
    expect(sum(right.data)).toBeCloseTo(8, 5);
    for (let y = 0; y < 8; y++) expect(right.data[y * 8]).toBe(0);
  });
});

describe('distanceField: bytes of 255·(1 − CUTOFF − d/RADIUS), d the signed distance to the outline', () => {
  // a 10 × 10 square at (3, 3)..(13, 13) on a 16 × 16 grid, with a 3-pixel buffer
  const cov = rasterize(
    polygon([
      [3, 3],
      [13, 3],
      [13, 13],
      [3, 13],
    ]),
    16,
    16,
  );
  const sdf = distanceField(cov, 3);
  // signed distance from a pixel centre (in the buffered grid) to the square: positive outside
  const distance = (px: number, py: number) => {
    const x = px + 0.5 - 3;
    const y = py + 0.5 - 3;
    const dx = Math.max(3 - x, 0, x - 13);
    const dy = Math.max(3 - y, 0, y - 13);
    if (dx > 0 || dy > 0) return Math.hypot(dx, dy);
    return -Math.min(x - 3, 13 - x, y - 3, 13 - y);
  };

  it('is (w + 2·buffer) × (h + 2·buffer)', () => {
    expect(sdf.width).toBe(22);
    expect(sdf.height).toBe(22);
    expect(sdf.data.length).toBe(22 * 22);
  });

  it('every pixel within 0.75 px of the exact distance', () => {
    // Distances run between pixel centres (as in tiny-sdf), so a pixel next to the outline reads
    // half a pixel farther from it than it is; the outline itself stays where it is (next test).
    let worst = 0;
    for (let y = 0; y < 22; y++) {
      for (let x = 0; x < 22; x++) {
        const expected = Math.max(0, Math.min(255, 255 - 255 * (distance(x, y) / RADIUS + CUTOFF)));
        worst = Math.max(worst, Math.abs(sdf.data[y * 22 + x]! - expected));
      }
    }
    expect(worst).toBeLessThanOrEqual((255 / RADIUS) * 0.75);
  });

  it('the 191 level, interpolated between pixel centres, is on the outline (within 0.1 px)', () => {
    // along the middle row, the left edge is at x = 3 + 3 (buffer); pixel i's centre is at i + 0.5
    const row = [...sdf.data.subarray(11 * 22, 12 * 22)];
    const i = row.findIndex((v, k) => k > 0 && row[k - 1]! < 191 && v >= 191);
    const at = i - 1 + 0.5 + (191 - row[i - 1]!) / (row[i]! - row[i - 1]!);
    expect(Math.abs(at - 6)).toBeLessThan(0.1);
    // and for an edge off the grid: a bar from x = 4.3, in a 2-pixel buffer
    const bar = distanceField(
      rasterize(
        polygon([
          [4.3, 0],
          [12, 0],
          [12, 8],
          [4.3, 8],
        ]),
        16,
        8,
      ),
      2,
    );
    const r2 = [...bar.data.subarray(5 * bar.width, 6 * bar.width)];
    const j = r2.findIndex((v, k) => k > 0 && r2[k - 1]! < 191 && v >= 191);
    const at2 = j - 1 + 0.5 + (191 - r2[j - 1]!) / (r2[j]! - r2[j - 1]!);
    expect(Math.abs(at2 - 6.3)).toBeLessThan(0.15);
  });

  it('the outline sits at 191: inside above, outside below', () => {
    expect(sdf.data[11 * 22 + 11]).toBe(255); // the centre: 5.5 px inside, clamped
    expect(sdf.data[11 * 22 + 6]).toBeGreaterThan(191); // first pixel inside the left edge
    expect(sdf.data[11 * 22 + 5]).toBeLessThan(191); // last outside it
    expect(sdf.data[0]).toBeLessThan(40); // a corner, 4.2 px away
  });
});

describe('glyph ranges', () => {
  it('drawGlyph places the bitmap by the outline: left, top from the ascender, advance rounded', () => {
    // a 4 × 10 px bar standing on the baseline at x = 1.5 (y down, as opentype.js gives outlines)
    const g = drawGlyph(
      73,
      polygon([
        [1.5, -10],
        [5.5, -10],
        [5.5, 0],
        [1.5, 0],
      ]),
      7.4,
      25.6,
    );
    expect(g).toMatchObject({ id: 73, left: 1, width: 5, height: 10, top: 10 - 26, advance: 7 });
    expect(g.bitmap!.length).toBe((5 + 6) * (10 + 6));
    expect(drawGlyph(32, [], 6.2, 25.6)).toEqual({ id: 32, advance: 6, width: 0, height: 0, left: 0, top: -26 });
  });

  it('encodeGlyphs writes glyphs.proto: fontstack { name = 1, range = 2, glyphs = 3 }', () => {
    const g = drawGlyph(
      65,
      polygon([
        [0, -8],
        [6, -8],
        [6, 0],
        [0, 0],
      ]),
      6,
      25.6,
    );
    const bytes = encodeGlyphs('Noto Sans Regular', 0, [g]);
    const seen: unknown[] = [];
    new PbfReader(bytes).readFields((tag, _, pbf) => {
      expect(tag).toBe(1);
      pbf.readMessage((t, __, p) => {
        if (t === 1) seen.push(p.readString());
        else if (t === 2) seen.push(p.readString());
        else if (t === 3) {
          const glyph: Record<number, unknown> = {};
          p.readMessage((u, ___, q) => {
            glyph[u] = u === 2 ? q.readBytes().length : u === 5 || u === 6 ? q.readSVarint() : q.readVarint();
          }, null);
          seen.push(glyph);
        }
      }, null);
    }, null);
    expect(seen).toEqual(['Noto Sans Regular', '0-255', { 1: 65, 2: 12 * 14, 3: 6, 4: 8, 5: 0, 6: 8 - 26, 7: 6 }]);
  });

  it('parseRange takes only 256-code-point blocks of the BMP', () => {
    expect(parseRange('0', '255')).toBe(0);
    expect(parseRange('65280', '65535')).toBe(65280);
    for (const [s, e] of [
      ['1', '256'],
      ['0', '256'],
      ['65536', '65791'],
      ['-256', '-1'],
      ['0x0', '255'],
      ['', '255'],
    ]) {
      expect(parseRange(s!, e!)).toBeUndefined();
    }
  });

  it('fontFor serves every stack from the face nearest to its first name', () => {
    expect(fontFor('Noto Sans Regular')).toBe('Noto Sans Regular');
    expect(fontFor('Noto Sans Devanagari Regular v1')).toBe('Noto Sans Regular');
    expect(fontFor('Open Sans Semibold,Arial Unicode MS Bold')).toBe('Noto Sans Medium');
    expect(fontFor('Roboto Italic')).toBe('Noto Sans Italic');
    expect(fontFor('Foo,Noto Sans Italic')).toBe('Noto Sans Italic');
  });
});

describe('distanceField of an outline at fractional coordinates, against exact distances to its edges', () => {
  // a "T" whose edges fall between pixels, like a glyph's
  const T: [number, number][] = [
    [2.3, 3.6],
    [17.7, 3.6],
    [17.7, 5.4],
    [10.9, 5.4],
    [10.9, 21.2],
    [9.1, 21.2],
    [9.1, 5.4],
    [2.3, 5.4],
  ];
  const buffer = 3;
  const sdf = distanceField(rasterize(polygon(T), 20, 24), buffer);
  const segDist = (px: number, py: number, [ax, ay]: [number, number], [bx, by]: [number, number]) => {
    const t = Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
    return Math.hypot(px - ax - t * (bx - ax), py - ay - t * (by - ay));
  };
  const inside = (px: number, py: number) => {
    let odd = false;
    for (let i = 0, j = T.length - 1; i < T.length; j = i++) {
      const [xi, yi] = T[i]!;
      const [xj, yj] = T[j]!;
      if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) odd = !odd;
    }
    return odd;
  };

  it('every pixel within 0.75 px of the exact signed distance, far from the outline as near it', () => {
    let worst = 0;
    for (let y = 0; y < sdf.height; y++) {
      for (let x = 0; x < sdf.width; x++) {
        const px = x + 0.5 - buffer;
        const py = y + 0.5 - buffer;
        const d = Math.min(...T.map((p, i) => segDist(px, py, p, T[(i + 1) % T.length]!))) * (inside(px, py) ? -1 : 1);
        const expected = Math.max(0, Math.min(255, 255 - 255 * (d / RADIUS + CUTOFF)));
        worst = Math.max(worst, Math.abs(sdf.data[y * sdf.width + x]! - expected));
      }
    }
    expect(worst).toBeLessThanOrEqual((255 / RADIUS) * 0.75);
  });

  it('pixels well away from the outline have no coverage at all (no rounding residue)', () => {
    const c = rasterize(polygon(T), 20, 24);
    for (const [x, y] of [
      [4, 12],
      [15, 18],
      [0, 0],
      [19, 23],
      [5, 6],
    ] as const)
      expect(c.data[y * 20 + x]).toBe(0);
    expect(c.data[12 * 20 + 9]).toBeGreaterThan(0.5);
    expect(c.data[12 * 20 + 10]).toBeGreaterThan(0.85);
  });
});
