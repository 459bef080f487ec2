/**
 * The travel-time choice beside the category chips: "within N minutes" by walk, motorbike or
 * car. With minutes chosen the chips ask `/search/nearby?by=time`; the mode is also the one the
 * reach (the isochrone, reach.ts) is drawn for.
 */
import { el } from './dom.js';
import type { Language, Mode } from './i18n.js';

/** The modes offered for travel time. */
export const TRAVEL_MODES: readonly Mode[] = ['foot', 'motorbike', 'car'];

/** The minutes offered: a short errand to a half-hour trip, within every mode's cap of `/search/nearby?by=time`. */
export const MINUTES = [5, 10, 15, 30] as const;

/** The contours of the reach for a choice of minutes: up to three, evenly spaced, the last the choice. */
export function contours(minutes: number | undefined): number[] {
  const n = minutes ?? 15;
  if (n <= 5) return [n];
  if (n <= 10) return [n / 2, n];
  return [n / 3, (2 * n) / 3, n].map(Math.round);
}

/** The choice and its controls. */
export class TravelChoice {
  /** Minutes to search within by travel time, or `undefined` for the distance of the view. */
  minutes?: number;
  mode: Mode = 'foot';
  private listeners: (() => void)[] = [];

  constructor(
    private ui: { select: HTMLSelectElement; modes: HTMLElement },
    private lang: Language,
  ) {
    for (const m of TRAVEL_MODES) {
      const b = el('button', 'np-travel-mode');
      b.type = 'button';
      b.dataset.mode = m;
      b.setAttribute('aria-pressed', String(m === this.mode));
      b.onclick = () => {
        if (m === this.mode) return;
        this.mode = m;
        this.render();
        this.changed();
      };
      ui.modes.append(b);
    }
    ui.select.onchange = () => {
      this.minutes = ui.select.value ? Number(ui.select.value) : undefined;
      this.changed();
    };
    this.render();
  }

  /** Calls `f` after each change of minutes or mode. */
  onChange(f: () => void): void {
    this.listeners.push(f);
  }

  /** The controls' words in the current language. */
  render(): void {
    const w = this.lang.w;
    const options = [el('option', '', w.anyDistance), ...MINUTES.map((n) => el('option', '', w.minutesOption(this.lang.num(n))))];
    options[0]!.value = '';
    MINUTES.forEach((n, i) => (options[i + 1]!.value = String(n)));
    this.ui.select.replaceChildren(...options);
    this.ui.select.value = this.minutes === undefined ? '' : String(this.minutes);
    for (const b of this.ui.modes.querySelectorAll<HTMLButtonElement>('.np-travel-mode')) {
      const m = b.dataset.mode as Mode;
      b.textContent = w.modes[m];
      b.setAttribute('aria-pressed', String(m === this.mode));
    }
  }

  private changed(): void {
    for (const f of this.listeners) f();
  }
}
