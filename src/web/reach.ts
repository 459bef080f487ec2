/**
 * The reach of the map's centre, drawn on demand: `/isochrone` for the travel choice's mode and
 * minutes, its contours (largest first) as stacked fills, each nearer one drawn over the farther,
 * below the map's labels, with a legend.
 */
import type { GeoJSONSource, Map } from 'maplibre-gl';
import { getJson, type Isochrone } from './api.js';
import { el } from './dom.js';
import type { Language } from './i18n.js';
import { contours, type TravelChoice } from './travel.js';

const SOURCE = 'np-reach';
/** The most contours drawn: one fill layer each. */
const LAYERS = 3;
/** Nearest first: green, amber, red (the usual reading of an isochrone). */
const COLOURS = ['#1a9c4b', '#e0a100', '#d2322d'];

/** The button, the layers and the legend. */
export class Reach {
  private at?: { lat: number; lon: number };
  private shown?: { minutes: number[] };
  private pending?: AbortController;

  constructor(
    private map: Map,
    private ui: { button: HTMLButtonElement; legend: HTMLElement; status: HTMLElement },
    private lang: Language,
    private travel: TravelChoice,
  ) {
    ui.button.onclick = () => (this.at ? this.hide() : void this.show());
    // a new mode or minutes while shown: the same point's reach for them
    travel.onChange(() => {
      if (this.at) void this.draw();
    });
  }

  /**
   * The fills (one per contour, the farthest at the bottom) and their outlines, added once the
   * style is loaded, below its first label layer so that names stay readable over them.
   */
  addLayers(): void {
    this.map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    const before = this.map.getStyle().layers.find((l) => l.type === 'symbol')?.id;
    for (let i = 0; i < LAYERS; i++) {
      this.map.addLayer(
        {
          id: `np-reach-fill-${i}`,
          type: 'fill',
          source: SOURCE,
          filter: ['==', ['get', 'np-rank'], i],
          paint: { 'fill-color': ['get', 'np-colour'], 'fill-opacity': 0.22 },
        },
        before,
      );
    }
    this.map.addLayer(
      {
        id: 'np-reach-line',
        type: 'line',
        source: SOURCE,
        paint: { 'line-color': ['get', 'np-colour'], 'line-width': 1.5, 'line-opacity': 0.9 },
      },
      before,
    );
  }

  /** The legend in the current language. */
  relang(): void {
    this.legend();
  }

  private async show(): Promise<void> {
    const c = this.map.getCenter();
    this.at = { lat: c.lat, lon: c.lng };
    this.ui.button.setAttribute('aria-pressed', 'true');
    await this.draw();
  }

  private hide(): void {
    this.pending?.abort();
    this.at = undefined;
    this.shown = undefined;
    this.ui.button.setAttribute('aria-pressed', 'false');
    this.setData([]);
    this.legend();
  }

  private async draw(): Promise<void> {
    this.pending?.abort();
    const at = this.at!;
    const minutes = contours(this.travel.minutes);
    const mode = this.travel.mode;
    const pending = (this.pending = new AbortController());
    let answer: Isochrone;
    try {
      answer = await getJson<Isochrone>(
        'isochrone',
        { lat: at.lat.toFixed(6), lon: at.lon.toFixed(6), mode, minutes: minutes.join(',') },
        pending.signal,
      );
    } catch (err) {
      if (pending.signal.aborted) return;
      this.hide();
      this.ui.status.textContent = this.lang.w.reachFailed(this.lang.error(err));
      return;
    }
    // largest first, as the API answers: rank 0 is the farthest, drawn at the bottom
    const features = answer.features.slice(0, LAYERS).map((f, i, all) => ({
      ...f,
      properties: { ...f.properties, 'np-rank': i, 'np-colour': COLOURS[all.length - 1 - i]! },
    }));
    this.setData(features);
    this.shown = { minutes: features.map((f) => f.properties.minutes).reverse() };
    this.legend();
  }

  private setData(features: Isochrone['features']): void {
    this.map.getSource<GeoJSONSource>(SOURCE)?.setData({ type: 'FeatureCollection', features } as GeoJSON.FeatureCollection);
  }

  // "Within 5, 10, 15 min on foot of the map's centre", with a swatch per contour
  private legend(): void {
    const { legend } = this.ui;
    legend.hidden = !this.shown;
    if (!this.shown) return legend.replaceChildren();
    const { minutes } = this.shown;
    const swatches = minutes.map((m, i) => {
      const item = el('span', 'np-swatch', this.lang.num(m));
      item.style.setProperty('--np-swatch', COLOURS[i]!);
      return item;
    });
    const text = el(
      'span',
      'np-reach-text',
      this.lang.w.reachLegend({ minutes: minutes.map((m) => this.lang.num(m)), mode: this.travel.mode }),
    );
    legend.replaceChildren(...swatches, text);
  }
}
