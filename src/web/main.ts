/**
 * The web app at `/` (served by `nepal-places serve`, built by scripts/web-app.ts): the map in the
 * `breeze` style, category chips (within the view or a travel time), the reach of the map's
 * centre, the search box, a popup of what is at a clicked point, and directions; in English or
 * Nepali. Plain DOM and MapLibre GL JS, everything from this server (no CDN, the Devanagari font
 * too), with the key the server wrote into the page.
 */
import { AttributionControl, GeolocateControl, Map, NavigationControl, ScaleControl, setWorkerUrl } from 'maplibre-gl';
import type { StyleSpecification } from 'maplibre-gl';
import { apiUrl, health, pageKey } from './api.js';
import { Directions } from './directions.js';
import { el, translate } from './dom.js';
import { initialLang, Language, LANGS, type Lang } from './i18n.js';
import { Nearby } from './nearby.js';
import { PlacePopup } from './popup.js';
import { Reach } from './reach.js';
import { SearchBox } from './search.js';
import { TravelChoice } from './travel.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The style when the server has no tiles: a plain ground under the app's own layers. */
const NO_MAP: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'ground', type: 'background', paint: { 'background-color': '#eef0ea' } }],
};

/** Room around the data when the map opens on it, px. */
const FIT_PADDING = 24;

/** The map's style in `lang`: its labels in that language (the Nepali style's are shaped on the server). */
const styleUrl = (lang: Lang) => apiUrl('styles/breeze', { lang });

/**
 * The next style with the app's own sources and layers (`np-…`) carried over from the previous
 * one, their data as it is, each placed before the same base layer as it was (so the reach stays
 * under the labels and the route over them).
 */
function keepAppLayers(previous: StyleSpecification | undefined, next: StyleSpecification): StyleSpecification {
  if (!previous) return next;
  const own = (id: string) => id.startsWith('np-');
  const sources = { ...next.sources };
  for (const [id, source] of Object.entries(previous.sources)) if (own(id)) sources[id] = source;
  const layers = [...next.layers];
  previous.layers.forEach((layer, i) => {
    if (!own(layer.id)) return;
    const after = previous.layers.slice(i + 1).find((l) => !own(l.id) && layers.some((n) => n.id === l.id));
    const at = after ? layers.findIndex((n) => n.id === after.id) : -1;
    if (at < 0) layers.push(layer);
    else layers.splice(at, 0, layer);
  });
  return { ...next, sources, layers };
}

/** The language switch: a button per language, each in its own language. */
function languageSwitch(box: HTMLElement, lang: Language): void {
  for (const l of LANGS) {
    const b = el('button', 'np-lang', { en: 'English', ne: 'नेपाली' }[l]);
    b.type = 'button';
    b.lang = l;
    b.dataset.lang = l;
    b.onclick = () => lang.set(l);
    box.append(b);
  }
  const pressed = () => {
    for (const b of box.querySelectorAll<HTMLElement>('.np-lang')) b.setAttribute('aria-pressed', String(b.dataset.lang === lang.lang));
  };
  pressed();
  lang.onChange(pressed);
}

async function start(): Promise<void> {
  const status = $('np-status');
  const lang = new Language(initialLang());
  const words = () => {
    document.documentElement.lang = lang.lang;
    translate(document, lang.w);
  };
  words();
  lang.onChange(words);
  languageSwitch($('np-langs'), lang);
  try {
    pageKey();
  } catch {
    status.textContent = lang.w.noKey;
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
    style: about?.map === false ? NO_MAP : styleUrl(lang.lang),
    attributionControl: false,
    hash: true,
  });
  const noTiles = () => {
    if (about?.map === false) status.textContent = lang.w.noTiles;
  };
  noTiles();
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

  const directions = new Directions(map, $('np-directions'), lang, () => expand(true));
  const popup = new PlacePopup(map, directions, lang);
  const travel = new TravelChoice({ select: $<HTMLSelectElement>('np-minutes'), modes: $('np-travel-modes') }, lang);
  const nearby = new Nearby(
    map,
    {
      chips: $('np-chips'),
      openNow: $<HTMLInputElement>('np-open-now'),
      results: $('np-results'),
      status,
      again: $<HTMLButtonElement>('np-again'),
    },
    lang,
    travel,
    (record) => popup.place(record),
  );
  const reach = new Reach(map, { button: $<HTMLButtonElement>('np-reach'), legend: $('np-reach-legend'), status }, lang, travel);
  const search = new SearchBox(map, $<HTMLInputElement>('np-q'), $('np-suggestions'), status, lang, (record) => popup.place(record));

  map.once('load', () => {
    reach.addLayers();
    nearby.addLayers();
    directions.addLayers();
  });
  // Another language: the map's labels (the other style, the app's layers kept), the words,
  // and every list asked again in it.
  lang.onChange((l) => {
    if (about?.map !== false) map.setStyle(styleUrl(l), { transformStyle: keepAppLayers });
    travel.render();
    nearby.relang();
    noTiles();
    reach.relang();
    directions.relang();
    void popup.relang();
    search.relang();
  });
  map.on('click', (e) => void popup.point(e.lngLat.lat, e.lngLat.lng));
  map.on('error', (e) => {
    console.warn('map:', e.error?.message ?? e);
    // the style or its tiles refused: the page's key is from before a restart of the server
    if ((e.error as { status?: number } | undefined)?.status === 401) status.textContent = lang.w.staleKey;
  });
  // For scripts and tests driving the page (the browser test reads the map through it).
  (globalThis as { nepalPlaces?: unknown }).nepalPlaces = { map, lang };
}

void start();
