/**
 * Category chips: `/search/nearby` around the map's centre, within the view's radius or, with
 * minutes chosen (travel.ts), within that travel time; the places as markers and as a list
 * (name, address, distance or travel time, open now), an "open now" toggle, the search radius
 * drawn.
 */
import { LngLatBounds, Marker, type GeoJSONSource, type Map } from 'maplibre-gl';
import { get, type Param, type PlaceRecord } from './api.js';
import { el } from './dom.js';
import type { Language, Mode } from './i18n.js';
import type { TravelChoice } from './travel.js';
import { circle, haversine } from './units.js';

/**
 * The chips: a `type` of `/search/nearby` (plain or merged, see the README's merged types), in
 * the order shown; their labels are in i18n.ts. Chosen for what a person in a city looks for first.
 */
export const CATEGORIES: readonly string[] = [
  'eat',
  'cafe',
  'hotel',
  'grocery',
  'atm',
  'bank',
  'pharmacy',
  'hospital',
  'clinic',
  'school',
  'transport',
  'parking',
  'fuel',
  'toilets',
  'police',
  'place_of_worship',
];

/** Places listed and marked per search. */
const LIMIT = 30;
const SOURCE = 'np-radius';

/** The chips, the list and the markers. */
export class Nearby {
  private type?: string;
  private markers: Marker[] = [];
  private centre?: { lat: number; lon: number; radius: number };
  private pending?: AbortController;

  constructor(
    private map: Map,
    private ui: { chips: HTMLElement; openNow: HTMLInputElement; results: HTMLElement; status: HTMLElement; again: HTMLButtonElement },
    private lang: Language,
    private travel: TravelChoice,
    private onPick: (record: PlaceRecord) => void,
  ) {
    for (const type of CATEGORIES) {
      const chip = el('button', 'np-chip');
      chip.type = 'button';
      chip.dataset.type = type;
      chip.setAttribute('aria-pressed', 'false');
      chip.onclick = () => this.choose(this.type === type ? undefined : type);
      ui.chips.append(chip);
    }
    this.labels();
    ui.openNow.onchange = () => void this.search();
    ui.again.onclick = () => void this.search();
    travel.onChange(() => {
      if (this.type) void this.search(this.centre);
    });
    // Moved away from the searched area: offer to search again rather than replacing the list
    // under the user's finger.
    map.on('moveend', () => {
      const c = this.centre;
      const at = map.getCenter();
      ui.again.hidden = !c || haversine(c.lat, c.lon, at.lat, at.lng) < c.radius / 2;
    });
  }

  /** The radius's fill and outline, added once the style is loaded. */
  addLayers(): void {
    this.map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    this.map.addLayer({ id: 'np-radius-fill', type: 'fill', source: SOURCE, paint: { 'fill-color': '#1d63d8', 'fill-opacity': 0.06 } });
    this.map.addLayer({
      id: 'np-radius-line',
      type: 'line',
      source: SOURCE,
      paint: { 'line-color': '#1d63d8', 'line-width': 1.5, 'line-dasharray': [3, 2] },
    });
  }

  /** The chips' labels, and the list asked again where it was, in the current language. */
  relang(): void {
    this.labels();
    if (this.type) void this.search(this.centre);
  }

  private labels(): void {
    for (const chip of this.ui.chips.querySelectorAll<HTMLElement>('.np-chip'))
      chip.textContent = this.lang.w.categories[chip.dataset.type!]![0];
  }

  private choose(type: string | undefined): void {
    this.type = type;
    for (const chip of this.ui.chips.querySelectorAll<HTMLElement>('.np-chip'))
      chip.setAttribute('aria-pressed', String(chip.dataset.type === type));
    void this.search();
  }

  /** The radius that covers the map's view from its centre: whole km, 1 to 100 (the API's range). */
  private radius(): number {
    const c = this.map.getCenter();
    const b = this.map.getBounds();
    const km = Math.min(haversine(c.lat, c.lng, b.getNorth(), c.lng), haversine(c.lat, c.lng, c.lat, b.getEast()));
    return Math.max(1, Math.min(100, Math.round(km)));
  }

  /** Asks for the chosen type around `at` (default: the map's centre, within the view's radius). */
  private async search(at?: { lat: number; lon: number; radius: number }): Promise<void> {
    this.pending?.abort();
    this.clear();
    const { type } = this;
    if (!type) return;
    const c = this.map.getCenter();
    const centre = (this.centre = at ?? { lat: c.lat, lon: c.lng, radius: this.radius() });
    const isOpen = this.ui.openNow.checked;
    const { minutes, mode } = this.travel;
    const byTime = minutes !== undefined;
    this.drawRadius();
    if (!byTime) this.showRadius();
    const pending = (this.pending = new AbortController());
    const { w } = this.lang;
    this.ui.status.textContent = w.searching;
    const params: Record<string, Param> = {
      type,
      lat: centre.lat.toFixed(6),
      lon: centre.lon.toFixed(6),
      limit: LIMIT,
      sortBy: true,
      isOpen,
      ...this.lang.param,
    };
    // by travel time: every place reached within the minutes (no radius: the minutes bound it)
    Object.assign(params, byTime ? { by: 'time', mode, minutes } : { radius: centre.radius });
    let records: PlaceRecord[];
    try {
      records = await get<PlaceRecord>('search/nearby', params, pending.signal);
    } catch (err) {
      if (!pending.signal.aborted) this.ui.status.textContent = this.lang.error(err);
      return;
    }
    const noun = w.categories[type]![1];
    const n = this.lang.num(records.length);
    if (byTime) {
      const o = { noun, open: isOpen, minutes: this.lang.num(minutes), mode };
      this.ui.status.textContent = records.length ? w.foundByTime({ ...o, n }) : w.noneByTime(o);
    } else {
      const o = { noun, open: isOpen, km: this.lang.num(centre.radius) };
      this.ui.status.textContent = records.length ? w.found({ ...o, n, nearest: records.length === LIMIT }) : w.none(o);
    }
    for (const r of records) {
      const dot = el('button', 'np-marker');
      dot.type = 'button';
      dot.title = this.lang.title(r);
      dot.dataset.placeId = String(r.placeId);
      dot.onclick = (e) => {
        e.stopPropagation(); // not a click on the map (which asks /reverse)
        this.onPick(r);
      };
      this.markers.push(new Marker({ element: dot }).setLngLat([r.centroid.lon, r.centroid.lat]).addTo(this.map));
      this.ui.results.append(this.item(r, byTime ? mode : undefined));
    }
    if (byTime) this.showPlaces(records, centre);
  }

  private item(r: PlaceRecord, mode: Mode | undefined): HTMLElement {
    const { w } = this.lang;
    const li = el('li', 'np-result');
    const b = el('button');
    b.type = 'button';
    b.dataset.placeId = String(r.placeId);
    b.append(el('span', 'np-name', this.lang.title(r)), el('span', 'np-address', r.address));
    const meta = el('span', 'np-meta');
    // by travel time: how long it takes and how far the way is; else how far it is as the crow flies
    if (mode && r.travelTimeInMs !== undefined) {
      const time = el('span', 'np-time', this.lang.duration(r.travelTimeInMs));
      time.dataset.ms = String(r.travelTimeInMs);
      time.title = w.by[mode];
      meta.append(time, el('span', 'np-distance', this.lang.distance(r.travelDistanceInMeters ?? (r.radialDistanceInKm ?? 0) * 1000)));
    } else meta.append(el('span', 'np-distance', this.lang.distance((r.radialDistanceInKm ?? 0) * 1000)));
    // `open` is false both when closed and when the hours are unknown: the tags tell which.
    const hours = r.tags.some((t) => t.startsWith('opening_hours|'));
    // by travel time with "open now", every place is open when one gets there (docs/travel-time.md)
    const open = mode && this.ui.openNow.checked ? w.openOnArrival : w.open;
    meta.append(r.open ? el('span', 'np-open', open) : el('span', 'np-closed', hours ? w.closed : w.hoursUnknown));
    b.append(meta);
    b.onclick = () => {
      this.map.flyTo({ center: [r.centroid.lon, r.centroid.lat], zoom: Math.max(this.map.getZoom(), 17) });
      this.onPick(r);
    };
    li.append(b);
    return li;
  }

  // Found by travel time: the centre and every place in view.
  private showPlaces(records: PlaceRecord[], c: { lat: number; lon: number }): void {
    const bounds = new LngLatBounds([c.lon, c.lat], [c.lon, c.lat]);
    for (const r of records) bounds.extend([r.centroid.lon, r.centroid.lat]);
    const view = this.map.getBounds();
    if (records.every((r) => view.contains([r.centroid.lon, r.centroid.lat]))) return;
    this.map.fitBounds(bounds, { padding: 40, duration: 400, maxZoom: this.map.getZoom() });
  }

  private clear(): void {
    for (const m of this.markers) m.remove();
    this.markers = [];
    this.ui.results.replaceChildren();
    this.ui.status.textContent = '';
    this.ui.again.hidden = true;
    if (!this.type) this.centre = undefined;
    this.drawRadius();
  }

  // The whole searched circle in view, so that every place found is on the map.
  private showRadius(): void {
    const c = this.centre!;
    const ring = circle(c.lat, c.lon, c.radius, 16);
    const view = this.map.getBounds();
    if (ring.every((p) => view.contains(p))) return;
    const lats = ring.map((p) => p[1]);
    const lons = ring.map((p) => p[0]);
    this.map.fitBounds(
      [
        [Math.min(...lons), Math.min(...lats)],
        [Math.max(...lons), Math.max(...lats)],
      ],
      { padding: 16, duration: 400 },
    );
  }

  // the radius searched; none by travel time, which no circle shows
  private drawRadius(): void {
    const c = this.type && this.travel.minutes === undefined ? this.centre : undefined;
    this.map.getSource<GeoJSONSource>(SOURCE)?.setData({
      type: 'FeatureCollection',
      features: c
        ? [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [circle(c.lat, c.lon, c.radius)] } }]
        : [],
    });
  }
}
