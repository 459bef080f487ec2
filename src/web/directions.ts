/**
 * Directions between two spots picked in popups: `/directions` for the chosen mode, the route
 * drawn as a line, its distance, time and steps in the panel, a mode switch (foot, bike,
 * motorbike, car).
 */
import polyline from '@mapbox/polyline';
import { LngLatBounds, Marker, type FilterSpecification, type GeoJSONSource, type Map } from 'maplibre-gl';
import { get, type PlaceRecord, type RouteRecord } from './api.js';
import { el } from './dom.js';
import type { Language, Mode } from './i18n.js';
import type { RouteEnds, Spot } from './popup.js';

/** The modes of `/directions`, in the switch's order. */
const MODES: readonly Mode[] = ['foot', 'bike', 'motorbike', 'car'];

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
    private lang: Language,
    private onShow: () => void,
  ) {
    const modes = panel.querySelector<HTMLElement>('.np-modes')!;
    for (const m of MODES) {
      const b = el('button', 'np-mode', lang.w.modes[m]);
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

  /** The panel's words, and the route asked again with its steps, in the current language. */
  relang(): void {
    for (const b of this.panel.querySelectorAll<HTMLElement>('.np-mode')) b.textContent = this.lang.w.modes[b.dataset.mode as Mode];
    if (this.panel.hidden) return;
    this.labels();
    void this.run();
    void this.rename();
  }

  // The ends named again in the current language: a place by its name, a bare point by its coordinates.
  private async rename(): Promise<void> {
    const { lang } = this.lang;
    const param = this.lang.param;
    for (const end of ['from', 'to'] as const) {
      const spot = this.ends[end];
      if (!spot) continue;
      let label = this.lang.num(`${spot.lat.toFixed(5)}, ${spot.lon.toFixed(5)}`);
      if (spot.placeId !== undefined) {
        try {
          const [record] = await get<PlaceRecord>('places', { placeId: spot.placeId, ...param });
          label = this.lang.title(record!);
        } catch {
          continue; // the place is gone (a reload of the data): its name as it was
        }
      }
      // still the same end, in the same language
      if (this.ends[end] === spot && this.lang.lang === lang) this.ends[end] = { ...spot, label };
    }
    this.labels();
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
    this.labels();
    for (const end of ['from', 'to'] as const) {
      const spot = this.ends[end];
      this.marks[end]?.remove();
      this.marks[end] = spot
        ? new Marker({ color: end === 'from' ? '#1a9c4b' : '#d2322d' }).setLngLat([spot.lon, spot.lat]).addTo(this.map)
        : undefined;
      this.marks[end]?.getElement().classList.add(`np-route-${end}`);
    }
    void this.run();
  }

  private labels(): void {
    for (const end of ['from', 'to'] as const)
      this.panel.querySelector(`.np-${end}-label`)!.textContent = this.ends[end]?.label ?? this.lang.w.pickPoint;
  }

  private async run(): Promise<void> {
    this.pending?.abort();
    const summary = this.panel.querySelector<HTMLElement>('.np-summary')!;
    const steps = this.panel.querySelector<HTMLElement>('.np-steps')!;
    steps.replaceChildren();
    this.draw([]);
    const { from, to } = this.ends;
    const { w } = this.lang;
    if (!from || !to) {
      summary.textContent = from ? w.pickEnd : w.pickStart;
      return;
    }
    const pending = (this.pending = new AbortController());
    summary.textContent = w.routing;
    const mode = this.mode;
    try {
      const [route] = await get<RouteRecord>(
        'directions',
        { 'points[]': [`${from.lat},${from.lon}`, `${to.lat},${to.lon}`], mode, instructions: true, ...this.lang.param },
        pending.signal,
      );
      const line = polyline.decode(route!.encodedPolyline).map(([lat, lon]) => [lon, lat] as [number, number]);
      this.draw(line);
      summary.textContent = w.trip({
        distance: this.lang.distance(route!.distanceInMeters),
        duration: this.lang.duration(route!.timeInMs),
        mode,
      });
      summary.dataset.metres = String(route!.distanceInMeters);
      // each step as the API words it, with its length (none for the arrival)
      for (const step of route!.instructionList ?? []) {
        const li = el('li', 'np-step', step.text);
        if (step.distance > 0) li.append(el('span', 'np-step-distance', this.lang.distance(step.distance)));
        steps.append(li);
      }
      const bounds = line.reduce((b, p) => b.extend(p), new LngLatBounds(line[0], line[0]));
      this.map.fitBounds(bounds, { padding: 60, maxZoom: 17 });
    } catch (err) {
      if (pending.signal.aborted) return;
      summary.textContent = this.lang.error(err);
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
