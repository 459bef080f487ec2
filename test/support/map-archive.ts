/**
 * A small PMTiles archive of hand-made vector tiles around Thamel, written with the
 * project's PMTiles writer, for the map's HTTP tests.
 */
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';
import { PmtilesWriter } from '../../src/tiles/pmtiles.js';
import { encodeMvt, type TestFeature } from './mvt.js';

/** The tile of (lon, lat) at zoom z (Web Mercator, the slippy-map formula). */
export function tileOf(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return [x, y];
}

/** (lon, lat) in the coordinates of tile z/x/y, extent 4096, rounded. */
export function inTile(lon: number, lat: number, z: number, x: number, y: number): [number, number] {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  const wx = ((lon + 180) / 360) * n;
  const wy = ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n;
  return [Math.round((wx - x) * 4096), Math.round((wy - y) * 4096)];
}

/** Where the test features are: a road 60 m south of Thamel's centre, two POIs beside it. */
export const PLACES = {
  road: [
    [85.3, 27.7149],
    [85.3123, 27.7149],
    [85.325, 27.715],
  ] as [number, number][],
  cafe: [85.3123, 27.7154] as [number, number],
  school: [85.314, 27.7158] as [number, number],
};

/**
 * The vector layers the test archive declares: the Protomaps basemap's (MapLibre reports every
 * source-layer a style draws that the TileJSON lacks); only roads and pois have features here.
 */
export const TEST_LAYERS = [
  ...['earth', 'water', 'landuse', 'landcover', 'buildings', 'places', 'boundaries', 'transit', 'natural'].map((id) => ({
    id,
    fields: { kind: 'String', min_zoom: 'Number' },
    minzoom: 0,
    maxzoom: 14,
  })),
  { id: 'roads', fields: { kind: 'String', name: 'String', 'name:en': 'String', min_zoom: 'Number' }, minzoom: 0, maxzoom: 14 },
  {
    id: 'pois',
    fields: { kind: 'String', name: 'String', 'name:en': 'String', placeId: 'Number', min_zoom: 'Number' },
    minzoom: 0,
    maxzoom: 14,
  },
];

/** The info the test archive's header carries. */
export const TEST_INFO = {
  minZoom: 0,
  maxZoom: 14,
  bounds: [85.3, 27.7, 85.33, 27.73] as [number, number, number, number],
  center: [85.3123, 27.7154, 14] as [number, number, number],
};

/** Every tile of the test archive: z0 and, from z10 to z14, the tile holding Thamel. */
export function testTiles(): { z: number; x: number; y: number; layers: Record<string, TestFeature[]> }[] {
  const out = [];
  for (const z of [0, 10, 11, 12, 13, 14]) {
    const [x, y] = tileOf(85.3123, 27.7154, z);
    const layers: Record<string, TestFeature[]> = {
      roads: [
        {
          id: 1,
          type: 'line',
          coords: PLACES.road.map(([lon, lat]) => inTile(lon, lat, z, x, y)),
          properties: { kind: 'major_road', name: 'ठमेल मार्ग', 'name:en': 'Thamel Marg', min_zoom: 10 },
        },
      ],
    };
    if (z === 14) {
      layers.pois = [
        {
          id: 2,
          type: 'point',
          coords: [inTile(...PLACES.cafe, z, x, y)],
          properties: { kind: 'cafe', name: 'Teafresho Tea Lounge', placeId: 17751388356, min_zoom: 14 },
        },
        {
          id: 3,
          type: 'point',
          coords: [inTile(...PLACES.school, z, x, y)],
          properties: { kind: 'school', name: 'Thamel School', min_zoom: 14 },
        },
      ];
    }
    out.push({ z, x, y, layers });
  }
  return out.sort((a, b) => zxyToTileId(a.z, a.x, a.y) - zxyToTileId(b.z, b.x, b.y));
}

/** Writes the test archive to `path` (gzip tiles, as the `tiles` command writes them). */
export function writeTestArchive(path: string, options: { compress?: boolean; metadata?: object } = {}): void {
  const { compress = true } = options;
  const w = new PmtilesWriter(path);
  for (const t of testTiles()) {
    const mvt = encodeMvt(t.layers);
    w.add(t.z, t.x, t.y, compress ? gzipSync(mvt) : mvt);
  }
  w.finish(
    { ...TEST_INFO, tileCompression: compress ? 2 : 1 } as Parameters<PmtilesWriter['finish']>[0],
    options.metadata ?? { name: 'thamel-test', vector_layers: TEST_LAYERS },
  );
}
