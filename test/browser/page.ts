/**
 * The browser test's page: fetches the fixture's snapshot, runs the nearby query of its
 * URL (`?type=eat&lat=27.7154&lon=85.3123&radius=2&limit=10&sortBy=1&isOpen=1&at=<ISO>`)
 * and shows the records, as a table and as JSON. `#status` gets `data-state` "done" or
 * "error" last, with the error's name and message on failure.
 */
import { fromSnapshot, nearby, type NearbyPlace, type NearbyQuery } from '../../src/core.js';

// The little of the DOM this page uses, typed here: the project compiles without lib
// "dom" (it would let Node code name browser globals unchecked).
interface Elem {
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  append(...nodes: Elem[]): void;
}
declare const document: {
  getElementById(id: string): Elem | null;
  querySelector(selector: string): Elem | null;
  createElement(tag: string): Elem;
};
declare const location: { search: string };

const status = document.getElementById('status')!;
// where the page runs: the test checks it is a foreign zone, and that there is no Node `process`
status.dataset.timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
status.dataset.process = typeof (globalThis as { process?: unknown }).process;

/** The query of the page's URL; absent parameters stay undefined (the defaults of nearby). */
function query(p: URLSearchParams): NearbyQuery {
  const num = (k: string) => (p.has(k) ? Number(p.get(k)) : undefined);
  const flag = (k: string) => (p.has(k) ? p.get(k) === '1' : undefined);
  return {
    type: p.get('type') ?? '',
    lat: num('lat')!,
    lon: num('lon')!,
    radius: num('radius'),
    limit: num('limit'),
    sortBy: flag('sortBy'),
    isOpen: flag('isOpen'),
    at: p.has('at') ? new Date(p.get('at')!) : undefined,
  };
}

function show(places: NearbyPlace[]): void {
  const body = document.querySelector('#places tbody')!;
  for (const r of places) {
    const tr = document.createElement('tr');
    tr.dataset.placeId = String(r.placeId);
    tr.dataset.km = String(r.radialDistanceInKm);
    for (const v of [r.name, r.type, r.radialDistanceInKm.toFixed(3), r.open ? 'open' : 'closed']) {
      const td = document.createElement('td');
      td.textContent = v;
      tr.append(td);
    }
    body.append(tr);
  }
  document.getElementById('json')!.textContent = JSON.stringify(places);
}

try {
  const res = await fetch('/fixture.places');
  if (!res.ok) throw new Error(`GET /fixture.places: ${res.status}`);
  const bytes = await res.arrayBuffer();
  const t0 = performance.now();
  const index = fromSnapshot(bytes, 'fixture.places');
  // how long opening took here, for the test to report beside Node's figure
  status.dataset.openMs = String(performance.now() - t0);
  const places = nearby(index, query(new URLSearchParams(location.search)));
  show(places);
  status.textContent = `${places.length} places`;
  status.dataset.state = 'done';
} catch (e) {
  const err = e instanceof Error ? e : new Error(String(e));
  status.textContent = err.message;
  status.dataset.error = err.name;
  status.dataset.state = 'error';
}
