/** The app's DOM building block (plain DOM, no framework). */

/** An element with a class and text, the app's building block (plain DOM, no framework). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}
