// A rough outline of Nepal for placing synthetic data: 43 vertices written by hand from general
// geography (Mahakali river in the west, the Terai border in the south, the Mechi river in the
// east, the Himalayan crest in the north). Good to a few kilometres; not for anything official.

/** Nepal's outline as `[lon, lat]` degrees, counter-clockwise from the south-west corner, not closed. */
export const NEPAL_OUTLINE: readonly (readonly [number, number])[] = [
  [80.06, 28.95], // south-west, Mahakali river at Brahmadev
  [80.55, 28.68],
  [81.1, 28.42],
  [81.62, 28.04], // Nepalgunj
  [82.05, 27.9],
  [82.72, 27.47], // Krishnanagar
  [83.45, 27.46], // Bhairahawa
  [83.9, 27.38], // Susta
  [84.2, 27.45],
  [84.62, 27.12],
  [84.88, 26.99], // Birgunj
  [85.3, 26.77], // Gaur
  [85.85, 26.6], // Jaleshwar
  [86.4, 26.5],
  [87.0, 26.42],
  [87.6, 26.39], // Biratnagar
  [88.06, 26.36], // Kechana, the lowest point
  [88.15, 26.66], // Kakarbhitta, Mechi river
  [88.08, 27.1],
  [88.19, 27.6],
  [88.15, 27.85], // Kangchenjunga ridge
  [87.6, 27.9],
  [87.09, 27.92], // Makalu
  [86.93, 27.99], // Everest
  [86.66, 28.1], // Cho Oyu
  [86.15, 28.05],
  [85.96, 27.98], // Kodari
  [85.38, 28.28], // Rasuwagadhi
  [85.1, 28.45],
  [84.6, 28.75],
  [84.15, 29.05],
  [84.1, 29.3],
  [83.85, 29.33], // Korala, upper Mustang
  [83.3, 29.5],
  [82.85, 29.75],
  [82.2, 30.05],
  [81.62, 30.42], // Limi, northern tip
  [81.3, 30.15], // Hilsa
  [80.95, 30.25], // Tinkar
  [80.55, 30.42], // Limpiyadhura
  [80.35, 29.8],
  [80.25, 29.4],
  [80.1, 29.15],
];

/** Whether `[lon, lat]` lies inside the outline (even-odd ray casting). */
export function insideNepal(lon: number, lat: number): boolean {
  let inside = false;
  const p = NEPAL_OUTLINE;
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
    const [xi, yi] = p[i];
    const [xj, yj] = p[j];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
