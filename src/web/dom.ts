/** The app's DOM building blocks (plain DOM, no framework). */
import type { Words } from './i18n.js';

/** An element with a class and text, the app's building block (plain DOM, no framework). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

/** The attributes of the page's own markup that name a word: `data-i18n` its text, the others an attribute's. */
const ATTRIBUTES = { 'data-i18n-placeholder': 'placeholder', 'data-i18n-label': 'aria-label', 'data-i18n-title': 'title' } as const;

/** Writes `w`'s words into the markup under `root` that names them (`data-i18n="openNow"`). */
export function translate(root: ParentNode, w: Words): void {
  const word = (key: string) => {
    const v = (w as unknown as Record<string, unknown>)[key];
    if (typeof v !== 'string') throw new Error(`no word ${JSON.stringify(key)}`);
    return v;
  };
  for (const e of root.querySelectorAll<HTMLElement>('[data-i18n]')) e.textContent = word(e.dataset.i18n!);
  for (const [data, attribute] of Object.entries(ATTRIBUTES))
    for (const e of root.querySelectorAll<HTMLElement>(`[${data}]`)) e.setAttribute(attribute, word(e.getAttribute(data)!));
}
