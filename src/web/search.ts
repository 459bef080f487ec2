/**
 * The search box: suggestions from `/search` as the user types (debounced, biased to the map's
 * centre), picked by click or keyboard; a pick fetches the place (`/places`) and flies there.
 */
import type { Map } from 'maplibre-gl';
import { get, type PlaceRecord, type Suggestion } from './api.js';
import { el } from './dom.js';
import type { Language } from './i18n.js';

/** Milliseconds of quiet typing before asking. */
const DEBOUNCE = 200;
/** The API's longest `q`. */
const MAX_Q = 200;

/** The box and its list. */
export class SearchBox {
  private timer?: ReturnType<typeof setTimeout>;
  private pending?: AbortController;
  private items: Suggestion[] = [];
  private active = -1;

  constructor(
    private map: Map,
    private input: HTMLInputElement,
    private list: HTMLElement,
    private status: HTMLElement,
    private lang: Language,
    private onPlace: (record: PlaceRecord) => void,
  ) {
    input.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.suggest(), DEBOUNCE);
    });
    input.addEventListener('keydown', (e) => this.key(e));
    input.addEventListener('blur', () => setTimeout(() => this.show([]), 150));
    input.form?.addEventListener('submit', (e) => {
      e.preventDefault();
      if (this.items.length) void this.pick(this.items[Math.max(0, this.active)]!);
    });
  }

  /** The suggestions shown, asked again in the current language. */
  relang(): void {
    if (this.items.length) void this.suggest();
  }

  private async suggest(): Promise<void> {
    this.pending?.abort();
    const q = this.input.value.trim().slice(0, MAX_Q);
    if (!q) return this.show([]);
    const pending = (this.pending = new AbortController());
    const c = this.map.getCenter();
    try {
      this.show(
        await get<Suggestion>('search', { q, lat: c.lat.toFixed(6), lon: c.lng.toFixed(6), limit: 8, ...this.lang.param }, pending.signal),
      );
    } catch (err) {
      if (pending.signal.aborted) return;
      this.show([]);
      this.status.textContent = this.lang.error(err);
    }
  }

  private show(items: Suggestion[]): void {
    this.items = items;
    this.active = -1;
    this.list.replaceChildren(
      ...items.map((s, i) => {
        const li = el('li', 'np-suggestion');
        li.id = `np-suggestion-${i}`;
        li.setAttribute('role', 'option');
        li.dataset.placeId = String(s.placeId);
        // what each is (a cafe, a street, a village): names alone look alike
        const head = el('span', 'np-head');
        head.append(el('span', 'np-name', this.lang.title(s)), el('span', 'np-kind', this.lang.kind(s.type)));
        li.append(head, el('span', 'np-address', s.address));
        // mousedown, not click: it comes before the input's blur hides the list
        li.addEventListener('mousedown', (e) => {
          e.preventDefault();
          void this.pick(s);
        });
        return li;
      }),
    );
    this.list.hidden = items.length === 0;
    this.input.setAttribute('aria-expanded', String(items.length > 0));
    this.input.removeAttribute('aria-activedescendant');
  }

  private key(e: KeyboardEvent): void {
    if (e.key === 'Escape') return this.show([]);
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    if (!this.items.length) return;
    e.preventDefault();
    const n = this.items.length;
    this.active = (this.active + (e.key === 'ArrowDown' ? 1 : n - 1 + (this.active < 0 ? 1 : 0))) % n;
    for (const [i, li] of [...this.list.children].entries()) li.setAttribute('aria-selected', String(i === this.active));
    this.input.setAttribute('aria-activedescendant', `np-suggestion-${this.active}`);
  }

  private async pick(s: Suggestion): Promise<void> {
    this.pending?.abort();
    this.show([]);
    this.input.value = this.lang.title(s);
    this.input.blur();
    try {
      const [record] = await get<PlaceRecord>('places', { placeId: s.placeId, ...this.lang.param });
      this.map.flyTo({ center: [record!.centroid.lon, record!.centroid.lat], zoom: Math.max(this.map.getZoom(), 17) });
      this.onPlace(record!);
    } catch (err) {
      this.status.textContent = this.lang.error(err);
    }
  }
}
