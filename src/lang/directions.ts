/**
 * Directions in Nepali: one template per instruction sign, written as a Nepali speaker gives
 * directions (the verb last, the street with its postposition: "दायाँ मोडेर कान्ति पथमा
 * लाग्नुहोस्"), not word for word from the English; and distances and durations in Devanagari
 * digits with Nepali units.
 */

/** GraphHopper's signs, as `route/instructions.ts` writes them (and those it may come to write: keep, leave roundabout). */
export const SIGNS = {
  uTurn: -98,
  uTurnLeft: -8,
  keepLeft: -7,
  leaveRoundabout: -6,
  sharpLeft: -3,
  left: -2,
  slightLeft: -1,
  continue: 0,
  slightRight: 1,
  right: 2,
  sharpRight: 3,
  finish: 4,
  via: 5,
  roundabout: 6,
  keepRight: 7,
  uTurnRight: 8,
} as const;

/** What a step's text is made of. */
export interface Step {
  sign: number;
  /** The street, in Nepali (`''`: none). */
  name: string;
  /** Roundabouts: the exit to take, 1 for the first. */
  exitNumber?: number;
  /** Via points: which (1 for the first). */
  via?: number;
  /** The first step of the route: a departure. */
  first?: boolean;
  /** A stretch the bike is pushed along. */
  pushed?: boolean;
}

/** A template: with a street, and without. `{street}` stands for the street with its postposition where one follows. */
export interface Template {
  street: string;
  none: string;
}

// a turn: "<how> मोडेर {street}मा लाग्नुहोस्" (having turned, take the street), else "<how> मोड्नुहोस्"
const turn = (how: string): Template => ({ street: `${how} मोडेर {street}मा लाग्नुहोस्`, none: `${how} मोड्नुहोस्` });

/** The Nepali template of each sign (by its number), and of a departure and a pushed bike (by name). */
export const TEMPLATES: Readonly<Record<number | 'depart' | 'push', Template>> = {
  [SIGNS.uTurn]: { street: 'यू-टर्न गरेर {street}मा लाग्नुहोस्', none: 'यू-टर्न गर्नुहोस्' },
  [SIGNS.uTurnLeft]: { street: 'बायाँबाट यू-टर्न गरेर {street}मा लाग्नुहोस्', none: 'बायाँबाट यू-टर्न गर्नुहोस्' },
  [SIGNS.uTurnRight]: { street: 'दायाँबाट यू-टर्न गरेर {street}मा लाग्नुहोस्', none: 'दायाँबाट यू-टर्न गर्नुहोस्' },
  [SIGNS.keepLeft]: { street: 'बायाँतिर लागेर {street}मा जानुहोस्', none: 'बायाँतिर लाग्नुहोस्' },
  [SIGNS.keepRight]: { street: 'दायाँतिर लागेर {street}मा जानुहोस्', none: 'दायाँतिर लाग्नुहोस्' },
  [SIGNS.leaveRoundabout]: { street: 'गोलचक्करबाट निस्केर {street}मा लाग्नुहोस्', none: 'गोलचक्करबाट निस्कनुहोस्' },
  [SIGNS.sharpLeft]: turn('तीव्र बायाँ'),
  [SIGNS.left]: turn('बायाँ'),
  [SIGNS.slightLeft]: turn('अलिकति बायाँ'),
  [SIGNS.continue]: { street: '{street} हुँदै सिधा जानुहोस्', none: 'सिधा जानुहोस्' },
  [SIGNS.slightRight]: turn('अलिकति दायाँ'),
  [SIGNS.right]: turn('दायाँ'),
  [SIGNS.sharpRight]: turn('तीव्र दायाँ'),
  [SIGNS.finish]: { street: '{street}मा रहेको गन्तव्यमा पुग्नुभयो', none: 'गन्तव्यमा पुग्नुभयो' },
  [SIGNS.via]: { street: '{street}मा रहेको {via} बीचको गन्तव्यमा पुग्नुभयो', none: '{via} बीचको गन्तव्यमा पुग्नुभयो' },
  [SIGNS.roundabout]: { street: 'गोलचक्करबाट {exit} निकास लिएर {street}मा लाग्नुहोस्', none: 'गोलचक्करबाट {exit} निकास लिनुहोस्' },
  depart: { street: '{street} हुँदै यात्रा सुरु गर्नुहोस्', none: 'यात्रा सुरु गर्नुहोस्' },
  push: { street: 'साइकलबाट ओर्लेर {street} हुँदै डोर्‍याएर लैजानुहोस्', none: 'साइकलबाट ओर्लेर डोर्‍याएर लैजानुहोस्' },
};

const DIGITS = '०१२३४५६७८९';
const ORDINALS = ['पहिलो', 'दोस्रो', 'तेस्रो', 'चौथो', 'पाँचौँ', 'छैटौँ', 'सातौँ', 'आठौँ', 'नवौँ', 'दसौँ'];

/** The digits of `s` (0–9) in Devanagari. */
export function devanagariDigits(s: string): string {
  return s.replace(/[0-9]/g, (d) => DIGITS[Number(d)]);
}

/** A Nepali ordinal: पहिलो, दोस्रो … दसौँ, then ११औँ, १२औँ … */
export function ordinal(n: number): string {
  return ORDINALS[n - 1] ?? `${devanagariDigits(String(n))}औँ`;
}

// A postposition is written joined to a Nepali word (कान्ति पथमा) and apart after digits or
// Latin letters (H02 मा), as Nepali prints them.
function withStreet(template: string, street: string): string {
  return template.replace(/\{street\}(मा|बाट)?/g, (_, post: string | undefined) =>
    post ? (/[\u0900-\u097f]$/.test(street) ? `${street}${post}` : `${street} ${post}`) : street,
  );
}

/**
 * The Nepali text of a step: its sign's template (a departure's for the first step, the pushed
 * bike's for a pushed stretch), with the street, the roundabout's exit and the via point's
 * number as ordinals. An unknown sign reads as going on.
 *
 * @example
 * nepaliText({ sign: 6, name: 'कान्ति पथ', exitNumber: 3 }); // => 'गोलचक्करबाट तेस्रो निकास लिएर कान्ति पथमा लाग्नुहोस्'
 */
export function nepaliText(step: Step): string {
  const key = step.pushed ? 'push' : step.first && step.sign === SIGNS.continue ? 'depart' : step.sign;
  const t = TEMPLATES[key] ?? TEMPLATES[SIGNS.continue];
  const text = step.name ? withStreet(t.street, step.name) : t.none;
  return text.replace('{exit}', ordinal(Math.max(1, step.exitNumber ?? 1))).replace('{via}', ordinal(Math.max(1, step.via ?? 1)));
}

/**
 * Metres as a person reads them: under a kilometre in whole metres (rounded to 10 above 100),
 * else kilometres with one decimal (whole above 10). `ne`: Devanagari digits, मि. and कि.मि.
 *
 * @example
 * formatDistance(1234, 'ne'); // => '१.२ कि.मि.'
 */
export function formatDistance(metres: number, lang: 'en' | 'ne' = 'en'): string {
  const m = Math.max(0, metres);
  let text: string;
  if (m < 995) {
    const v = m < 100 ? Math.round(m) : Math.round(m / 10) * 10;
    text = lang === 'ne' ? `${v} मि.` : `${v} m`;
  } else {
    const km = m / 1000;
    const v = km < 9.95 ? km.toFixed(1) : String(Math.round(km));
    text = lang === 'ne' ? `${v} कि.मि.` : `${v} km`;
  }
  return lang === 'ne' ? devanagariDigits(text) : text;
}

/**
 * Milliseconds as a person reads them: under an hour in whole minutes (at least 1), else hours
 * and minutes. `ne`: Devanagari digits, मिनेट and घण्टा.
 *
 * @example
 * formatDuration(4_980_000, 'ne'); // => '१ घण्टा २३ मिनेट'
 */
export function formatDuration(ms: number, lang: 'en' | 'ne' = 'en'): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const h = Math.floor(minutes / 60),
    min = minutes % 60;
  if (lang === 'ne') {
    const text = h ? `${h} घण्टा${min ? ` ${min} मिनेट` : ''}` : `${min} मिनेट`;
    return devanagariDigits(text);
  }
  return h ? `${h} h${min ? ` ${min} min` : ''}` : `${min} min`;
}
