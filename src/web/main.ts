/**
 * The web app at `/` (served by `nepal-places serve`, built by scripts/web-app.ts): the map in the
 * `breeze` style, category chips, the search box, a popup of what is at a clicked point, and
 * directions. Plain DOM and MapLibre GL JS, everything from this server (no CDN), with the key
 * the server wrote into the page.
 */
import { AttributionControl, GeolocateControl, Map, NavigationControl, ScaleControl, setWorkerUrl } from 'maplibre-gl';
import type { StyleSpecification } from 'maplibre-gl';
import { apiUrl, health, pageKey } from './api.js';
import { Directions } from './directions.js';
import { Nearby } from './nearby.js';
import { PlacePopup } from './popup.js';
import { SearchBox } from './search.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The style when the server has no tiles: a plain ground under the app's own layers. */
const NO_MAP: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'ground', type: 'background', paint: { 'background-color': '#eef0ea' } }],
};

/** Room around the data when the map opens on it, px. */
const FIT_PADDING = 24;

async function start(): Promise<void> {
  const status = $('np-status');
  try {
    pageKey();
  } catch (err) {
    status.textContent = (err as Error).message;
    return;
  }
  // A URL with a view (#zoom/lat/lon, the map's hash) opens there; any other opens on the data.
  const linked = /^#\d/.test(location.hash);
  const about = await health();
  // MapLibre starts its worker from the file beside this bundle (scripts/web-app.ts copies it).
  setWorkerUrl(new URL('maplibre-gl-worker.mjs', import.meta.url).href);
  const map = new Map({
    container: 'map',
    // the styles' tiles, glyphs and sprite URLs carry the key; without tiles they answer 404
    style: about?.map === false ? NO_MAP : apiUrl('styles/breeze'),
    attributionControl: false,
    hash: true,
  });
  if (about?.map === false) {
    status.textContent =
      'This server has no map tiles, so there is no map: places, search and directions work without it. To see the map, build the tiles (nepal-places build … --tiles FILE.pmtiles) and serve them.';
  }
  // The tiles' attribution, "© OpenStreetMap contributors", shown in full, not folded away; on a
  // phone at the top, where the bottom sheet does not cover it.
  const phone = matchMedia('(max-width: 719px)').matches;
  map.addControl(new AttributionControl({ compact: false }), phone ? 'top-left' : 'bottom-right');
  map.addControl(new NavigationControl(), 'top-right');
  map.addControl(new GeolocateControl({ positionOptions: { enableHighAccuracy: true } }), 'top-right');
  map.addControl(new ScaleControl(), 'bottom-right');

  const panel = $('np-panel');
  const handle = $<HTMLButtonElement>('np-handle');
  const expand = (open: boolean) => {
    panel.classList.toggle('np-collapsed', !open);
    handle.setAttribute('aria-expanded', String(open));
  };
  handle.onclick = () => expand(panel.classList.contains('np-collapsed'));
  // On a phone the sheet covers the bottom of the map: the map's centre (where nearby searches)
  // is the middle of what is left visible.
  const pad = () => map.setPadding({ top: 0, left: 0, right: 0, bottom: panel.offsetHeight });
  if (phone) {
    pad(); // now, so that the first view is fitted to what the sheet leaves visible
    new ResizeObserver(pad).observe(panel);
  }
  // The first view holds the data: a style's centre would be lost to the padding above (and
  // is not there without tiles), and the world at zoom 0 shows nothing of Nepal.
  const b = about?.bounds;
  if (!linked && b)
    map.fitBounds(
      [
        [b[0], b[1]],
        [b[2], b[3]],
      ],
      { padding: FIT_PADDING, maxZoom: 16, animate: false },
    );

  const directions = new Directions(map, $('np-directions'), () => expand(true));
  const popup = new PlacePopup(map, directions);
  const nearby = new Nearby(
    map,
    {
      chips: $('np-chips'),
      openNow: $<HTMLInputElement>('np-open-now'),
      results: $('np-results'),
      status,
      again: $<HTMLButtonElement>('np-again'),
    },
    (record) => popup.place(record),
  );
  new SearchBox(map, $<HTMLInputElement>('np-q'), $('np-suggestions'), status, (record) => popup.place(record));

  map.on('load', () => {
    nearby.addLayers();
    directions.addLayers();
  });
  map.on('click', (e) => void popup.point(e.lngLat.lat, e.lngLat.lng));
  map.on('error', (e) => {
    console.warn('map:', e.error?.message ?? e);
    // the style or its tiles refused: the page's key is from before a restart of the server
    if ((e.error as { status?: number } | undefined)?.status === 401)
      status.textContent = "This page's key is no longer valid (the server has restarted?): reload the page.";
  });
  // For scripts and tests driving the page (the browser test reads the map through it).
  (globalThis as { nepalPlaces?: unknown }).nepalPlaces = { map };
}

void start();
