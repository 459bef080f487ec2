import type { PlaceIndex } from '../../index/place-index.js';
import { VERSION } from '../../version.js';
import type { Api } from '../api.js';
import { healthEndpoint } from '../endpoints.js';
import type { HealthInfo } from '../records.js';

/** What `/health` says of the instance and its data: nothing secret (no key, no path). Its record schema is `records.ts`'s. */
export type Health = HealthInfo;

// the box of each index, computed at its first health check: an index does not change
const boxes = new WeakMap<PlaceIndex, Health['bounds']>();

/** The box around every row of `index` (places, localities, streets), or `null` when it has none. */
export function dataBounds(index: PlaceIndex): Health['bounds'] {
  let box = boxes.get(index);
  if (box !== undefined) return box;
  const t = index.table;
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  for (let i = 0; i < t.size; i++) {
    const x = t.lon[i]!,
      y = t.lat[i]!;
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  }
  box = t.size ? [w / 1e7, s / 1e7, e / 1e7, n / 1e7] : null;
  boxes.set(index, box);
  return box;
}

/**
 * `GET /health`: for load balancers and orchestrators, and for the web app, which opens on the
 * data's extent. No key, no quota: a 200 envelope means this instance is up and serving its
 * index; its one record says what it serves.
 */
export function healthRoutes(api: Api): void {
  api.open(healthEndpoint, (c) => {
    const index = api.current();
    const date = api.about.dataDate?.();
    const health: Health = {
      version: VERSION,
      places: index.size,
      bounds: dataBounds(index),
      dataDate: date ? date.toISOString() : null,
      map: api.about.map,
      ...(index.pack && { pack: index.pack as Health['pack'] }),
    };
    return api.reply(c, 200, undefined, [health]);
  });
}
