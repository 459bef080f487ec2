/**
 * Category chips: `/search/nearby` around the map's centre, the places as markers and as a list
 * (name, address, distance, open now), an "open now" toggle, the search radius drawn.
 */
import { Marker, type GeoJSONSource, type Map } from 'maplibre-gl';
import { get, type PlaceRecord } from './api.js';
import { el } from './dom.js';
import { circle, distance, haversine, title } from './units.js';

/**
 * The chips: a `type` of `/search/nearby` (plain or merged, see the README's merged types) and
 * its label. Chosen for what a person in a city looks for first.
 */
export const CATEGORIES: readonly [type: string, label: string, noun: string][] = [
  ['eat', 'Eat', 'places to eat'],
  ['cafe', 'Cafés', 'cafés'],
  ['hotel', 'Hotels', 'hotels'],
  ['grocery', 'Groceries', 'grocery shops'],
  ['atm', 'ATMs', 'ATMs'],
  ['bank', 'Banks', 'banks'],
  ['pharmacy', 'Pharmacies', 'pharmacies'],
  ['hospital', 'Hospitals', 'hospitals'],
  ['clinic', 'Clinics', 'clinics'],
  ['school', 'Schools', 'schools'],
  ['transport', 'Bus stops', 'bus stops'],
  ['parking', 'Parking', 'parking places'],
  ['fuel', 'Fuel', 'fuel stations'],
  ['toilets', 'Toilets', 'toilets'],
  ['police', 'Police', 'police stations'],
  ['place_of_worship', 'Temples', 'places of worship'],
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
    private onPick: (record: PlaceRecord) => void,
  ) {
    for (const [type, label] of CATEGORIES) {
      const chip = el('button', 'np-chip', label);
      chip.type = 'button';
      chip.dataset.type = type;
      chip.setAttribute('aria-pressed', 'false');
      chip.onclick = () => this.choose(this.type === type ? undefined : type);
      ui.chips.append(chip);
    }
    ui.openNow.onchange = () => void this.search();
    ui.again.onclick = () => void this.search();
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

  private async search(): Promise<void> {
    this.pending?.abort();
    this.clear();
    const { type } = this;
    if (!type) return;
    const c = this.map.getCenter();
    const centre = (this.centre = { lat: c.lat, lon: c.lng, radius: this.radius() });
    const isOpen = this.ui.openNow.checked;
    this.drawRadius();
    this.showRadius();
    const pending = (this.pending = new AbortController());
    this.ui.status.textContent = 'Searching…';
    let records: PlaceRecord[];
    try {
      records = await get<PlaceRecord>(
        'search/nearby',
        {
          type,
          lat: centre.lat.toFixed(6),
          lon: centre.lon.toFixed(6),
          radius: centre.radius,
          limit: LIMIT,
          sortBy: true,
          isOpen,
        },
        pending.signal,
      );
    } catch (err) {
      if (!pending.signal.aborted) this.ui.status.textContent = (err as Error).message;
      return;
    }
    const label = CATEGORIES.find(([t]) => t === type)![2];
    this.ui.status.textContent = records.length
      ? `${records.length}${records.length === LIMIT ? ' nearest' : ''} ${label}${isOpen ? ' open now' : ''} within ${centre.radius} km`
      : `No ${label}${isOpen ? ' open now' : ''} within ${centre.radius} km of the map's centre`;
    for (const r of records) {
      const dot = el('button', 'np-marker');
      dot.type = 'button';
      dot.title = title(r);
      dot.dataset.placeId = String(r.placeId);
      dot.onclick = (e) => {
        e.stopPropagation(); // not a click on the map (which asks /reverse)
        this.onPick(r);
      };
      this.markers.push(new Marker({ element: dot }).setLngLat([r.centroid.lon, r.centroid.lat]).addTo(this.map));
      this.ui.results.append(this.item(r));
    }
  }

  private item(r: PlaceRecord): HTMLElement {
    const li = el('li', 'np-result');
    const b = el('button');
    b.type = 'button';
    b.dataset.placeId = String(r.placeId);
    b.append(el('span', 'np-name', title(r)), el('span', 'np-address', r.address));
    const meta = el('span', 'np-meta', distance((r.radialDistanceInKm ?? 0) * 1000));
    // `open` is false both when closed and when the hours are unknown: the tags tell which.
    const hours = r.tags.some((t) => t.startsWith('opening_hours|'));
    meta.append(r.open ? el('span', 'np-open', 'open now') : el('span', 'np-closed', hours ? 'closed now' : 'hours unknown'));
    b.append(meta);
    b.onclick = () => {
      this.map.flyTo({ center: [r.centroid.lon, r.centroid.lat], zoom: Math.max(this.map.getZoom(), 17) });
      this.onPick(r);
    };
    li.append(b);
    return li;
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

  private drawRadius(): void {
    const c = this.type ? this.centre : undefined;
    this.map.getSource<GeoJSONSource>(SOURCE)?.setData({
      type: 'FeatureCollection',
      features: c
        ? [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [circle(c.lat, c.lon, c.radius)] } }]
        : [],
    });
  }
}
