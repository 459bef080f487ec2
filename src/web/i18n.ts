/**
 * The app's words in English and Nepali, and how each language writes numbers, distances and
 * durations. Every string the app shows comes from here; the names, addresses and instructions
 * come from the API in the language asked (`lang`).
 */
import { ApiError } from './api.js';

/** The app's languages, as the API's `lang` spells them. */
export const LANGS = ['en', 'ne'] as const;
/** One of `LANGS`. */
export type Lang = (typeof LANGS)[number];

/** Where the chosen language is remembered. */
const STORE = 'nepal-places.lang';

/** The travel modes the app offers, as the API spells them. */
export type Mode = 'foot' | 'bike' | 'motorbike' | 'car';

/** The words of one language. */
export interface Words {
  /** The language's own name, on its switch. */
  self: string;
  title: string;
  map: string;
  places: string;
  search: string;
  searchHint: string;
  chipsLabel: string;
  openNow: string;
  searchArea: string;
  directions: string;
  modesLabel: string;
  swap: string;
  clearRoute: string;
  language: string;
  noKey: string;
  staleKey: string;
  noTiles: string;
  searching: string;
  /** The chips: the label and the noun of each `type` (see `CATEGORIES` of nearby.ts). */
  categories: Record<string, [label: string, noun: string]>;
  /** What a place is, by its `type`; a type not here is written from the type itself. */
  types: Record<string, string>;
  /** `12 nearest cafés open now within 2 km`. */
  found(o: { n: string; nearest: boolean; noun: string; open: boolean; km: string }): string;
  /** `No cafés open now within 2 km of the map's centre`. */
  none(o: { noun: string; open: boolean; km: string }): string;
  /** `12 cafés within 10 min on foot`. */
  foundByTime(o: { n: string; noun: string; open: boolean; minutes: string; mode: Mode }): string;
  /** `No cafés within 10 min on foot of the map's centre`. */
  noneByTime(o: { noun: string; open: boolean; minutes: string; mode: Mode }): string;
  open: string;
  /** By travel time with "open now": open at the arrival (`isOpen` counts the travel time). */
  openOnArrival: string;
  closed: string;
  hoursUnknown: string;
  lookingUp: string;
  nothingNear: string;
  lookupFailed: string;
  away(d: string): string;
  from: string;
  to: string;
  pickPoint: string;
  pickStart: string;
  pickEnd: string;
  routing: string;
  /** The mode's button. */
  modes: Record<Mode, string>;
  /** `on foot`, after a duration in English, before it in Nepali (see `trip`). */
  by: Record<Mode, string>;
  /** `1.2 km · 15 min on foot`. */
  trip(o: { distance: string; duration: string; mode: Mode }): string;
  within: string;
  anyDistance: string;
  minutesOption(n: string): string;
  travelLabel: string;
  reach: string;
  reachHint: string;
  /** `Within 5, 10, 15 min on foot of the map's centre`. */
  reachLegend(o: { minutes: string[]; mode: Mode }): string;
  reachFailed(message: string): string;
  units: { m: string; km: string; s: string; min: string; h: string };
}

const en: Words = {
  self: 'English',
  title: 'nepal-places: the map',
  map: 'Map',
  places: 'Places',
  search: 'Search',
  searchHint: 'Search places, streets, areas',
  chipsLabel: 'What to look for nearby',
  openNow: 'Open now',
  searchArea: 'Search this area',
  directions: 'Directions',
  modesLabel: 'Travel mode',
  swap: 'Swap',
  clearRoute: 'Clear route',
  language: 'Language',
  noKey: 'This page carries no API key: open it from nepal-places serve.',
  staleKey: "This page's key is no longer valid (the server has restarted?): reload the page.",
  noTiles:
    'This server has no map tiles, so there is no map: places, search and directions work without it. To see the map, build the tiles (nepal-places build … --tiles FILE.pmtiles) and serve them.',
  searching: 'Searching…',
  categories: {
    eat: ['Eat', 'places to eat'],
    cafe: ['Cafés', 'cafés'],
    hotel: ['Hotels', 'hotels'],
    grocery: ['Groceries', 'grocery shops'],
    atm: ['ATMs', 'ATMs'],
    bank: ['Banks', 'banks'],
    pharmacy: ['Pharmacies', 'pharmacies'],
    hospital: ['Hospitals', 'hospitals'],
    clinic: ['Clinics', 'clinics'],
    school: ['Schools', 'schools'],
    transport: ['Bus stops', 'bus stops'],
    parking: ['Parking', 'parking places'],
    fuel: ['Fuel', 'fuel stations'],
    toilets: ['Toilets', 'toilets'],
    police: ['Police', 'police stations'],
    place_of_worship: ['Temples', 'places of worship'],
  },
  types: {},
  found: ({ n, nearest, noun, open, km }) => `${n}${nearest ? ' nearest' : ''} ${noun}${open ? ' open now' : ''} within ${km} km`,
  none: ({ noun, open, km }) => `No ${noun}${open ? ' open now' : ''} within ${km} km of the map's centre`,
  foundByTime: ({ n, noun, open, minutes, mode }) =>
    `${n} ${noun}${open ? ' open when you arrive' : ''} within ${minutes} min ${en.by[mode]}`,
  noneByTime: ({ noun, open, minutes, mode }) =>
    `No ${noun}${open ? ' open when you arrive' : ''} within ${minutes} min ${en.by[mode]} of the map's centre`,
  open: 'open now',
  openOnArrival: 'open when you arrive',
  closed: 'closed now',
  hoursUnknown: 'hours unknown',
  lookingUp: 'Looking up this point…',
  nothingNear: 'No named place within 500 m',
  lookupFailed: 'Could not look this point up',
  away: (d) => `${d} away`,
  from: 'Directions from here',
  to: 'Directions to here',
  pickPoint: 'pick a point on the map',
  pickStart: 'Pick where to start: click the map, then "Directions from here".',
  pickEnd: 'Now pick where to go: click the map, then "Directions to here".',
  routing: 'Finding a route…',
  modes: { foot: 'Walk', bike: 'Bike', motorbike: 'Motorbike', car: 'Car' },
  by: { foot: 'on foot', bike: 'by bike', motorbike: 'by motorbike', car: 'by car' },
  trip: ({ distance, duration, mode }) => `${distance} · ${duration} ${en.by[mode]}`,
  within: 'Within',
  anyDistance: 'the view',
  minutesOption: (n) => `${n} min`,
  travelLabel: 'Travel time',
  reach: 'Reach',
  reachHint: "Show how far you get from the map's centre",
  reachLegend: ({ minutes, mode }) => `Within ${minutes.join(', ')} min ${en.by[mode]} of the map's centre`,
  reachFailed: (message) => `Could not draw the reach: ${message}`,
  units: { m: 'm', km: 'km', s: 's', min: 'min', h: 'h' },
};

const ne: Words = {
  self: 'नेपाली',
  title: 'nepal-places: नक्सा',
  map: 'नक्सा',
  places: 'ठाउँहरू',
  search: 'खोज',
  searchHint: 'ठाउँ, सडक वा क्षेत्र खोज्नुहोस्',
  chipsLabel: 'नजिकै के खोज्ने',
  openNow: 'अहिले खुला',
  searchArea: 'यो क्षेत्रमा खोज्नुहोस्',
  directions: 'बाटो',
  modesLabel: 'यात्राको साधन',
  swap: 'उल्टाउनुहोस्',
  clearRoute: 'बाटो हटाउनुहोस्',
  language: 'भाषा',
  noKey: 'यो पृष्ठमा API कुञ्जी छैन: यसलाई nepal-places serve बाट खोल्नुहोस्।',
  staleKey: 'यो पृष्ठको कुञ्जी अब मान्य छैन (सर्भर फेरि सुरु भयो?): पृष्ठ फेरि लोड गर्नुहोस्।',
  noTiles:
    'यो सर्भरमा नक्साका टाइलहरू छैनन्, त्यसैले नक्सा देखिँदैन: ठाउँ, खोज र बाटो भने चल्छन्। नक्सा हेर्न टाइल बनाउनुहोस् (nepal-places build … --tiles FILE.pmtiles) र सर्भ गर्नुहोस्।',
  searching: 'खोज्दै…',
  categories: {
    eat: ['खाना', 'खाने ठाउँ'],
    cafe: ['क्याफे', 'क्याफे'],
    hotel: ['होटल', 'होटल'],
    grocery: ['किराना', 'किराना पसल'],
    atm: ['एटीएम', 'एटीएम'],
    bank: ['बैंक', 'बैंक'],
    pharmacy: ['औषधि पसल', 'औषधि पसल'],
    hospital: ['अस्पताल', 'अस्पताल'],
    clinic: ['क्लिनिक', 'क्लिनिक'],
    school: ['विद्यालय', 'विद्यालय'],
    transport: ['बस बिसौनी', 'बस बिसौनी'],
    parking: ['पार्किङ', 'पार्किङ'],
    fuel: ['इन्धन', 'पेट्रोल पम्प'],
    toilets: ['शौचालय', 'शौचालय'],
    police: ['प्रहरी', 'प्रहरी कार्यालय'],
    place_of_worship: ['मन्दिर', 'पूजास्थल'],
  },
  types: {
    cafe: 'क्याफे',
    restaurant: 'रेस्टुरेन्ट',
    fast_food: 'फास्ट फुड',
    bar: 'बार',
    pub: 'पब',
    bakery: 'बेकरी',
    hotel: 'होटल',
    guest_house: 'गेस्ट हाउस',
    hostel: 'होस्टल',
    supermarket: 'सुपरमार्केट',
    convenience: 'किराना पसल',
    greengrocer: 'तरकारी पसल',
    clothes: 'कपडा पसल',
    atm: 'एटीएम',
    bank: 'बैंक',
    money_lender: 'सहकारी',
    pharmacy: 'औषधि पसल',
    chemist: 'औषधि पसल',
    hospital: 'अस्पताल',
    clinic: 'क्लिनिक',
    doctors: 'डाक्टर',
    dentist: 'दन्त चिकित्सक',
    school: 'विद्यालय',
    college: 'कलेज',
    university: 'विश्वविद्यालय',
    kindergarten: 'बालविकास केन्द्र',
    library: 'पुस्तकालय',
    bus_stop: 'बस बिसौनी',
    bus_station: 'बसपार्क',
    parking: 'पार्किङ',
    fuel: 'पेट्रोल पम्प',
    toilets: 'शौचालय',
    police: 'प्रहरी',
    post_office: 'हुलाक',
    place_of_worship: 'पूजास्थल',
    temple: 'मन्दिर',
    stupa: 'स्तूप',
    museum: 'संग्रहालय',
    attraction: 'घुम्ने ठाउँ',
    viewpoint: 'दृश्यस्थल',
    park: 'पार्क',
    garden: 'बगैंचा',
    marketplace: 'बजार',
    townhall: 'नगरपालिका',
    embassy: 'दूतावास',
    office: 'कार्यालय',
    government: 'सरकारी कार्यालय',
    city: 'सहर',
    town: 'नगर',
    village: 'गाउँ',
    suburb: 'टोल',
    neighbourhood: 'टोल',
    quarter: 'टोल',
    locality: 'स्थान',
    motorway: 'राजमार्ग',
    trunk: 'राजमार्ग',
    primary: 'मुख्य सडक',
    secondary: 'सडक',
    tertiary: 'सडक',
    residential: 'गल्ली',
    unclassified: 'सडक',
    service: 'सानो बाटो',
    living_street: 'गल्ली',
    pedestrian: 'पैदल मार्ग',
    footway: 'पैदल बाटो',
    path: 'गोरेटो',
    track: 'कच्ची बाटो',
    street: 'सडक',
  },
  found: ({ n, nearest, noun, open, km }) => `${km} कि.मि. भित्र${open ? ' अहिले खुला' : ''}${nearest ? ' नजिकका' : ''} ${n} ${noun}`,
  none: ({ noun, open, km }) => `नक्साको केन्द्रबाट ${km} कि.मि. भित्र${open ? ' अहिले खुला' : ''} कुनै ${noun} छैन`,
  foundByTime: ({ n, noun, open, minutes, mode }) => `${ne.by[mode]} ${minutes} मिनेट भित्र${open ? ' पुग्दा खुला' : ''} ${n} ${noun}`,
  noneByTime: ({ noun, open, minutes, mode }) =>
    `नक्साको केन्द्रबाट ${ne.by[mode]} ${minutes} मिनेट भित्र${open ? ' पुग्दा खुला' : ''} कुनै ${noun} छैन`,
  open: 'अहिले खुला',
  openOnArrival: 'पुग्दा खुला',
  closed: 'अहिले बन्द',
  hoursUnknown: 'समय थाहा छैन',
  lookingUp: 'यो ठाउँ खोज्दै…',
  nothingNear: '५०० मि. भित्र नाम भएको ठाउँ छैन',
  lookupFailed: 'यो ठाउँ खोज्न सकिएन',
  away: (d) => `${d} टाढा`,
  from: 'यहाँबाट बाटो',
  to: 'यहाँसम्म बाटो',
  pickPoint: 'नक्सामा एउटा ठाउँ छान्नुहोस्',
  pickStart: 'कहाँबाट जाने छान्नुहोस्: नक्सामा थिच्नुहोस्, अनि "यहाँबाट बाटो"।',
  pickEnd: 'अब कहाँ जाने छान्नुहोस्: नक्सामा थिच्नुहोस्, अनि "यहाँसम्म बाटो"।',
  routing: 'बाटो खोज्दै…',
  modes: { foot: 'पैदल', bike: 'साइकल', motorbike: 'मोटरसाइकल', car: 'कार' },
  by: { foot: 'हिँडेर', bike: 'साइकलमा', motorbike: 'मोटरसाइकलमा', car: 'कारमा' },
  trip: ({ distance, duration, mode }) => `${distance} · ${ne.by[mode]} ${duration}`,
  within: 'भित्र',
  anyDistance: 'देखिएको भाग',
  minutesOption: (n) => `${n} मिनेट`,
  travelLabel: 'यात्राको समय',
  reach: 'पहुँच',
  reachHint: 'नक्साको केन्द्रबाट कति टाढा पुगिन्छ देखाउनुहोस्',
  reachLegend: ({ minutes, mode }) => `नक्साको केन्द्रबाट ${ne.by[mode]} ${minutes.join(', ')} मिनेट भित्र`,
  reachFailed: (message) => `पहुँच देखाउन सकिएन: ${message}`,
  units: { m: 'मि.', km: 'कि.मि.', s: 'सेकेन्ड', min: 'मिनेट', h: 'घण्टा' },
};

const WORDS: Record<Lang, Words> = { en, ne };

/** The language the page opens in: the one chosen before on this browser, else the browser's, else English. */
export function initialLang(): Lang {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORE);
  } catch {
    // storage refused (a private window's policy): the browser's language decides
  }
  if (saved === 'en' || saved === 'ne') return saved;
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  // the first of the browser's languages that the app speaks (`ne-NP` is Nepali)
  for (const tag of wanted) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'ne' || base === 'en') return base;
  }
  return 'en';
}

/** Remembers `lang` on this browser (nothing when storage is refused). */
export function saveLang(lang: Lang): void {
  try {
    localStorage.setItem(STORE, lang);
  } catch {
    // not remembered: the next visit opens in the browser's language
  }
}

const DEVANAGARI_DIGITS = '०१२३४५६७८९';

/**
 * The page's current language and how it writes: its words, numbers, distances and durations.
 * Components read it at each render and subscribe to changes.
 */
export class Language {
  private listeners: ((lang: Lang) => void)[] = [];

  constructor(private current: Lang) {}

  /** The current language. */
  get lang(): Lang {
    return this.current;
  }

  /** The API's parameter for it, carried by every request that answers names, addresses or instructions. */
  get param(): { lang: Lang } {
    return { lang: this.current };
  }

  /** Its words. */
  get w(): Words {
    return WORDS[this.current];
  }

  /** Switches to `lang` (remembered) and tells every subscriber; nothing when it is the current one. */
  set(lang: Lang): void {
    if (lang === this.current) return;
    this.current = lang;
    saveLang(lang);
    for (const f of this.listeners) f(lang);
  }

  /** Calls `f` after each switch. */
  onChange(f: (lang: Lang) => void): void {
    this.listeners.push(f);
  }

  /**
   * The digits of `text` in the language's script: Devanagari digits in Nepali. Written by
   * hand rather than by `Intl` with `nu-deva`: a fixed mapping of ten code points, the same in
   * every browser whatever locale data it ships.
   */
  num(text: string | number): string {
    const s = String(text);
    return this.current === 'ne' ? s.replace(/[0-9]/g, (d) => DEVANAGARI_DIGITS[Number(d)]!) : s;
  }

  /** `350 m`, `2.4 km`, `25 km`; in Nepali `३५० मि.`, `२.४ कि.मि.`. */
  distance(metres: number): string {
    const u = this.w.units;
    if (metres < 950) return this.num(`${Math.max(1, Math.round(metres / 10) * 10)} ${u.m}`);
    const km = metres / 1000;
    return this.num(`${km < 10 ? km.toFixed(1) : Math.round(km)} ${u.km}`);
  }

  /** `45 s`, `31 min`, `2 h 05 min`; in Nepali `४५ सेकेन्ड`, `३१ मिनेट`, `२ घण्टा ०५ मिनेट`. */
  duration(ms: number): string {
    const u = this.w.units;
    const s = Math.round(ms / 1000);
    if (s < 60) return this.num(`${s} ${u.s}`);
    const min = Math.round(s / 60);
    if (min < 60) return this.num(`${min} ${u.min}`);
    return this.num(`${Math.floor(min / 60)} ${u.h} ${String(min % 60).padStart(2, '0')} ${u.min}`);
  }

  /** What to say of a failed request: the server's message, or that the page's key is stale. */
  error(err: unknown): string {
    return err instanceof ApiError && err.status === 401 ? this.w.staleKey : (err as Error).message;
  }

  /** What a place is, for a person: `bus_stop` → `Bus stop`, in Nepali `बस बिसौनी` where the app knows the word. */
  kind(type: string): string {
    const word = Object.hasOwn(this.w.types, type) ? this.w.types[type] : undefined;
    if (word) return word;
    const t = type.replace(/_/g, ' ').trim();
    return t.charAt(0).toUpperCase() + t.slice(1);
  }

  /**
   * A place's name in the language: `name:ne` / `name:en` among its tags where OSM has it (what
   * the map labels), else the name the API gave in the language asked, else what it is.
   */
  title(record: { name: string; type: string; tags?: readonly string[] }): string {
    const prefix = `name:${this.current}|`;
    const own = record.tags?.find((t) => t.startsWith(prefix))?.slice(prefix.length);
    return own || record.name || this.kind(record.type);
  }
}
