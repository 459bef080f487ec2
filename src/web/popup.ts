/**
 * The popup of a point on the map: what is there (a place, or `/reverse` of a clicked point) and
 * the buttons that start directions from or to it.
 */
import { Popup, type Map } from 'maplibre-gl';
import { ApiError, get, type PlaceRecord } from './api.js';
import { el } from './dom.js';
import type { Language } from './i18n.js';

/** A point the user picked: where it is and what to call it. */
export interface Spot {
  lat: number;
  lon: number;
  label: string;
  /** The place it is, to name it again in another language. */
  placeId?: number;
}

/** Where the popup's "directions from here / to here" go. */
export interface RouteEnds {
  from(spot: Spot): void;
  to(spot: Spot): void;
}

/** One popup at a time on `map`. */
export class PlacePopup {
  // Not closed by a click on the map: that click asks /reverse and moves it there.
  private popup = new Popup({ maxWidth: '300px', className: 'np-popup', focusAfterOpen: false, closeOnClick: false });
  private seq = 0;
  /** What is shown, to show again in another language. */
  private shown?: { placeId: number } | { lat: number; lon: number };

  constructor(
    private map: Map,
    private ends: RouteEnds,
    private lang: Language,
  ) {
    this.popup.on('close', () => (this.shown = undefined));
  }

  /** Shows `record` at its centroid. */
  place(record: PlaceRecord): void {
    this.seq++;
    const { lat, lon } = record.centroid;
    this.show(lat, lon, this.card(record, { lat, lon, label: this.lang.title(record), placeId: record.placeId }));
    this.shown = { placeId: record.placeId };
  }

  /** Shows what `/reverse` finds at a clicked point (or that nothing named is near). */
  async point(lat: number, lon: number): Promise<void> {
    const seq = ++this.seq;
    const { w } = this.lang;
    const here: Spot = { lat, lon, label: this.lang.num(`${lat.toFixed(5)}, ${lon.toFixed(5)}`) };
    const waiting = el('div', 'np-card');
    waiting.append(el('p', 'np-muted', w.lookingUp));
    this.show(lat, lon, waiting);
    this.shown = { lat, lon };
    let content: HTMLElement;
    try {
      const [record] = await get<PlaceRecord>('reverse', { lat: lat.toFixed(6), lon: lon.toFixed(6), radius: 0.5, ...this.lang.param });
      content = this.card(record!, { ...here, label: this.lang.title(record!), placeId: record!.placeId }, record!.radialDistanceInKm);
    } catch (err) {
      content = el('div', 'np-card');
      const nothing = err instanceof ApiError && err.status === 404;
      content.append(el('strong', 'np-title', nothing ? w.nothingNear : w.lookupFailed));
      content.append(el('p', 'np-muted', nothing ? here.label : this.lang.error(err)));
      content.append(this.buttons(here));
    }
    if (seq === this.seq) this.popup.setDOMContent(content);
  }

  /** What is shown, asked again in the current language. */
  async relang(): Promise<void> {
    const shown = this.shown;
    if (!shown || !this.popup.isOpen()) return;
    if ('lat' in shown) return this.point(shown.lat, shown.lon);
    const seq = ++this.seq;
    try {
      const [record] = await get<PlaceRecord>('places', { placeId: shown.placeId, ...this.lang.param });
      if (seq === this.seq) this.place(record!);
    } catch {
      // the place is gone (a reload of the data): the popup as it was
    }
  }

  /** Closes it. */
  close(): void {
    this.popup.remove();
  }

  private show(lat: number, lon: number, content: HTMLElement): void {
    this.popup.setLngLat([lon, lat]).setDOMContent(content);
    if (!this.popup.isOpen()) this.popup.addTo(this.map);
  }

  private card(record: PlaceRecord, spot: Spot, km?: number): HTMLElement {
    const card = el('div', 'np-card');
    card.dataset.placeId = String(record.placeId);
    card.append(el('strong', 'np-title', this.lang.title(record)));
    card.append(el('p', 'np-address', record.address));
    const facts = [this.lang.kind(record.type)];
    if (km !== undefined && km > 0) facts.push(this.lang.w.away(this.lang.distance(km * 1000)));
    card.append(el('p', 'np-muted', facts.join(' · ')));
    card.append(this.buttons(spot));
    return card;
  }

  private buttons(spot: Spot): HTMLElement {
    const row = el('div', 'np-route-buttons');
    const from = el('button', 'np-from', this.lang.w.from);
    const to = el('button', 'np-to', this.lang.w.to);
    from.type = to.type = 'button';
    from.onclick = () => {
      this.ends.from(spot);
      this.close();
    };
    to.onclick = () => {
      this.ends.to(spot);
      this.close();
    };
    row.append(from, to);
    return row;
  }
}
