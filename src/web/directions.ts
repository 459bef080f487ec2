/**
 * Directions between two spots picked in popups: `/directions` for the chosen mode, the route
 * drawn as a line, its distance and time in the panel, a mode switch (foot, bike, car).
 */
import polyline from '@mapbox/polyline';
import { LngLatBounds, Marker, type FilterSpecification, type GeoJSONSource, type Map } from 'maplibre-gl';
import { get, type RouteRecord } from './api.js';
import { el } from './dom.js';
import type { RouteEnds, Spot } from './popup.js';
import { distance, duration } from './units.js';

/** The modes of `/directions`, as the switch shows them. */
const MODES = { foot: ['Walk', 'on foot'], bike: ['Bike', 'by bike'], car: ['Car', 'by car'] } as const;
type Mode = keyof typeof MODES;

const SOURCE = 'np-route';

/** The directions panel and the route on the map. */
export class Directions implements RouteEnds {
  private ends: { from?: Spot; to?: Spot } = {};
  private marks: { from?: Marker; to?: Marker } = {};
  private mode: Mode = 'foot';
  private pending?: AbortController;

  constructor(
    private map: Map,
    private panel: HTMLElement,
    private onShow: () => void,
  ) {
    const modes = panel.querySelector<HTMLElement>('.np-modes')!;
    for (const m of Object.keys(MODES) as Mode[]) {
      const b = el('button', 'np-mode', MODES[m][0]);
      b.type = 'button';
      b.dataset.mode = m;
      b.setAttribute('aria-pressed', String(m === this.mode));
      b.onclick = () => this.setMode(m);
      modes.append(b);
    }
    panel.querySelector<HTMLButtonElement>('.np-clear')!.onclick = () => this.clear();
    panel.querySelector<HTMLButtonElement>('.np-swap')!.onclick = () => {
      const { from, to } = this.ends;
      this.ends = { from: to, to: from };
      this.update();
    };
  }

  /** The route's line and casing, added once the style is loaded. */
  addLayers(): void {
    this.map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    // The route from the road points the picked spots snapped to; dashed, from each spot to its road.
    const route: FilterSpecification = ['==', ['get', 'part'], 'route'];
    this.map.addLayer({
      id: 'np-route-ends',
      type: 'line',
      source: SOURCE,
      filter: ['==', ['get', 'part'], 'end'],
      paint: { 'line-color': '#1d63d8', 'line-width': 2, 'line-dasharray': [1, 2] },
    });
    this.map.addLayer({
      id: 'np-route-casing',
      type: 'line',
      source: SOURCE,
      filter: route,
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': '#ffffff', 'line-width': 9 },
    });
    this.map.addLayer({
      id: 'np-route-line',
      type: 'line',
      source: SOURCE,
      filter: route,
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': '#1d63d8', 'line-width': 5 },
    });
  }

  from(spot: Spot): void {
    this.ends.from = spot;
    this.update();
  }

  to(spot: Spot): void {
    this.ends.to = spot;
    this.update();
  }

  private setMode(mode: Mode): void {
    this.mode = mode;
    for (const b of this.panel.querySelectorAll<HTMLElement>('.np-mode')) b.setAttribute('aria-pressed', String(b.dataset.mode === mode));
    void this.run();
  }

  private clear(): void {
    this.pending?.abort();
    this.ends = {};
    this.update();
    this.panel.hidden = true;
  }

  private update(): void {
    this.panel.hidden = false;
    this.onShow();
    for (const end of ['from', 'to'] as const) {
      const spot = this.ends[end];
      this.panel.querySelector(`.np-${end}-label`)!.textContent = spot?.label ?? 'pick a point on the map';
      this.marks[end]?.remove();
      this.marks[end] = spot
        ? new Marker({ color: end === 'from' ? '#1a9c4b' : '#d2322d' }).setLngLat([spot.lon, spot.lat]).addTo(this.map)
        : undefined;
      this.marks[end]?.getElement().classList.add(`np-route-${end}`);
    }
    void this.run();
  }

  private async run(): Promise<void> {
    this.pending?.abort();
    const summary = this.panel.querySelector<HTMLElement>('.np-summary')!;
    this.draw([]);
    const { from, to } = this.ends;
    if (!from || !to) {
      summary.textContent = from
        ? 'Now pick where to go: click the map, then "Directions to here".'
        : 'Pick where to start: click the map, then "Directions from here".';
      return;
    }
    const pending = (this.pending = new AbortController());
    summary.textContent = 'Finding a route…';
    const mode = this.mode;
    try {
      const [route] = await get<RouteRecord>(
        'directions',
        { 'points[]': [`${from.lat},${from.lon}`, `${to.lat},${to.lon}`], mode },
        pending.signal,
      );
      const line = polyline.decode(route!.encodedPolyline).map(([lat, lon]) => [lon, lat] as [number, number]);
      this.draw(line);
      summary.textContent = `${distance(route!.distanceInMeters)} · ${duration(route!.timeInMs)} ${MODES[mode][1]}`;
      summary.dataset.metres = String(route!.distanceInMeters);
      const bounds = line.reduce((b, p) => b.extend(p), new LngLatBounds(line[0], line[0]));
      this.map.fitBounds(bounds, { padding: 60, maxZoom: 17 });
    } catch (err) {
      if (pending.signal.aborted) return;
      summary.textContent = (err as Error).message;
    }
  }

  // The route first, then the two dashed ends.
  private draw(line: [number, number][]): void {
    const { from, to } = this.ends;
    const part = (name: string, coordinates: [number, number][]) => ({
      type: 'Feature' as const,
      properties: { part: name },
      geometry: { type: 'LineString' as const, coordinates },
    });
    this.map.getSource<GeoJSONSource>(SOURCE)?.setData({
      type: 'FeatureCollection',
      features:
        line.length && from && to
          ? [part('route', line), part('end', [[from.lon, from.lat], line[0]!]), part('end', [line[line.length - 1]!, [to.lon, to.lat]])]
          : [],
    });
  }
}
