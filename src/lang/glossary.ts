import { phoneticKeys, spelledLetters, stem } from './translit.js';

/**
 * The words of place names that Nepali and English name differently (a temple is a मन्दिर, a
 * school a विद्यालय): a name tagged in one language and searched in the other shares no sound
 * there, so these words share a key by meaning instead. Each English word is read as its Nepali
 * counterpart; words Nepali borrows from English (बैंक, होटल, क्याफे) need no entry, their
 * sounds already agree. Lower case; the first Nepali word is the one a key is made of.
 */
export const GLOSSARY: Readonly<Record<string, readonly string[]>> = {
  temple: ['मन्दिर', 'mandir', 'mandira'],
  monastery: ['गुम्बा', 'gumba'],
  school: ['विद्यालय', 'vidyalaya', 'bidyalaya', 'पाठशाला', 'pathshala'],
  library: ['पुस्तकालय', 'pustakalaya'],
  office: ['कार्यालय', 'karyalaya'],
  police: ['प्रहरी', 'prahari'],
  post: ['हुलाक', 'hulak', 'डाक', 'dak'],
  hospital: ['अस्पताल', 'aspatal'],
  // a street's word: OSM's English names choose among these freely (Exhibition Road प्रदर्शनी मार्ग)
  street: ['मार्ग', 'marg', 'marga', 'road', 'path', 'way', 'पथ', 'sadak', 'सडक'],
  square: ['चोक', 'chowk', 'chok'],
  market: ['बजार', 'bazaar', 'bazar'],
  kitchen: ['भान्सा', 'bhansa'],
  tree: ['वृक्ष', 'brikshya'],
  education: ['शिक्षा', 'shiksha'],
  center: ['केन्द्र', 'kendra'],
  centre: ['केन्द्र', 'kendra'],
  valley: ['उपत्यका', 'upatyaka'],
  institute: ['संस्थान', 'sansthan'],
  institution: ['संस्था', 'sanstha'],
  ministry: ['मन्त्रालय', 'mantralaya'],
  department: ['विभाग', 'bibhag'],
  university: ['विश्वविद्यालय', 'vishwavidyalaya'],
  government: ['सरकार', 'sarkar'],
  cooperative: ['सहकारी', 'sahakari'],
  saving: ['बचत', 'bachat'],
  savings: ['बचत', 'bachat'],
  credit: ['ऋण', 'rin'],
  store: ['भण्डार', 'bhandar'],
  shop: ['पसल', 'pasal'],
  medicine: ['औषधि', 'aushadhi'],
  bridge: ['पुल', 'pul'],
  river: ['नदी', 'nadi'],
  lake: ['ताल', 'tal'],
  pond: ['पोखरी', 'pokhari'],
  gate: ['ढोका', 'dhoka'],
  palace: ['दरबार', 'durbar', 'darbar'],
  ward: ['वडा', 'wada'],
  municipality: ['नगरपालिका', 'nagarpalika'],
  metropolitan: ['महानगरपालिका', 'mahanagarpalika'],
  city: ['शहर', 'sahar', 'shahar'],
  village: ['गाउँ', 'gaun'],
  stop: ['बिसौनी', 'bisauni'],
  park: ['उद्यान', 'udyan'],
  garden: ['बगैंचा', 'bagaincha'],
  house: ['घर', 'ghar'],
  home: ['घर', 'ghar'],
  workshop: ['कार्यशाला', 'karyashala'],
  health: ['स्वास्थ्य', 'swasthya'],
  and: ['र', 'tatha', 'तथा'],
  indian: ['भारतीय', 'bharatiya'],
  chinese: ['चिनियाँ', 'chiniya'],
  english: ['अंग्रेजी', 'angreji'],
  first: ['प्रथम', 'pratham'],
  development: ['विकास', 'bikas', 'vikas'],
  secondary: ['माध्यमिक', 'madhyamik'],
  higher: ['उच्च', 'uchcha'],
  boarding: ['आवासीय', 'awasiya'],
  lovely: ['सुन्दर', 'sundar'],
  beautiful: ['सुन्दर', 'sundar'],
  water: ['पानी', 'pani'],
  hill: ['डाँडा', 'danda'],
  statue: ['मूर्ति', 'murti', 'सालिक', 'शालिक', 'salik'],
  fountain: ['धारा', 'dhara'],
  spout: ['धारा', 'dhara'],
  rest: ['पाटी', 'pati'],
  courtyard: ['बहाल', 'bahal'],
  private: ['प्राइभेट', 'pvt', 'प्रा', 'pra', 'prai'],
  limited: ['लिमिटेड', 'ltd', 'लि', 'li'],
  exhibition: ['प्रदर्शनी', 'pradarshani'],
  international: ['अन्तर्राष्ट्रिय', 'antarrashtriya', 'अन्तराष्ट्रिय'],
  language: ['भाषा', 'bhasa'],
  dance: ['नृत्य', 'nritya'],
  training: ['प्रशिक्षण', 'prashikshan'],
  natural: ['प्राकृतिक', 'prakritik'],
  vegetarian: ['शाकाहारी', 'shakahari'],
  veg: ['शाकाहारी', 'shakahari'],
  local: ['स्थानीय', 'sthaniya'],
  barber: ['नाई', 'nai'],
  multipurpose: ['बहुउद्देश्यीय', 'bahuuddeshiya'],
  consultancy: ['परामर्श', 'paramarsha'],
  educational: ['शैक्षिक', 'shaikshik'],
  japanese: ['जापानी', 'japani'],
  empire: ['साम्राज्य', 'samrajya'],
  clock: ['घण्टा', 'ghanta'],
  tower: ['घर', 'ghar'],
  biology: ['जीवविज्ञान', 'jeevavigyan'],
  factory: ['कारखाना', 'karkhana'],
  dental: ['दन्त', 'danta'],
  insurance: ['बीमा', 'bima'],
  life: ['जीवन', 'jiwan'],
  food: ['खाना', 'khana'],
  cuisine: ['खाना', 'khana'],
  fresh: ['ताजा', 'taja'],
  book: ['पुस्तक', 'pustak'],
  books: ['पुस्तक', 'pustak'],
  service: ['सेवा', 'sewa'],
  services: ['सेवा', 'sewa'],
  community: ['सामुदायिक', 'samudayik'],
  security: ['सुरक्षा', 'suraksha'],
  protection: ['संरक्षण', 'sanrakshan'],
  child: ['बाल', 'bal'],
  children: ['बाल', 'bal'],
  north: ['उत्तर', 'uttar', 'उत्तरी'],
  south: ['दक्षिण', 'dakshin', 'दक्षिणी'],
  east: ['पूर्व', 'purba', 'पूर्वी'],
  west: ['पश्चिम', 'paschim', 'पश्चिमी'],
  blue: ['नीलो', 'nilo'],
  red: ['रातो', 'rato'],
  white: ['सेतो', 'seto'],
  black: ['कालो', 'kalo'],
  green: ['हरियो', 'hariyo'],
  dream: ['सपना', 'sapana'],
  famous: ['प्रसिद्ध', 'prasiddha'],
  delicious: ['स्वादिष्ट', 'swadista'],
  music: ['संगीत', 'sangit'],
  art: ['कला', 'kala'],
  arts: ['कला', 'kala'],
  museum: ['संग्रहालय', 'sangrahalaya'],
  national: ['राष्ट्रिय', 'rastriya'],
  science: ['विज्ञान', 'bigyan'],
  sciences: ['विज्ञान', 'bigyan'],
  chemistry: ['रसायन', 'rasayan'],
  physics: ['भौतिक', 'bhautik'],
  environment: ['वातावरण', 'watawaran'],
  environmental: ['वातावरण', 'watawaran'],
  tea: ['चिया', 'chiya'],
  chicken: ['कुखुरा', 'kukhura'],
  meat: ['मासु', 'masu'],
  primary: ['प्राथमिक', 'prathamik'],
  area: ['क्षेत्र', 'kshetra'],
  secret: ['गोप्य', 'gopya'],
  eye: ['आँखा', 'ankha'],
  money: ['मुद्रा', 'mudra'],
  foreign: ['विदेशी', 'bideshi'],
  memorial: ['स्मारक', 'smarak'],
  great: ['महान्', 'mahan'],
  night: ['रात', 'raat', 'रातको'],
  time: ['समय', 'samaya'],
  women: ['महिला', 'mahila'],
  youth: ['युवा', 'yuwa'],
};

/**
 * Words a name in one language has and its other-language name often lacks (`The Bakery Cafe`
 * is बेकरी क्याफे; the s of `Dai's`, the n of `Cafe n' Bar`): a query word among them need not
 * match a name by sound or meaning.
 */
export const OPTIONAL_WORDS: ReadonlySet<string> = new Set([
  'the',
  'of',
  'and',
  'a',
  'an',
  'at',
  'in',
  'co',
  'inc',
  'pvt',
  'ltd',
  'p',
  's',
  'n',
  'र',
  'तथा',
  'एण्ड',
]);

/** The Nepali word each word of the glossary stands for (itself, for the Nepali ones), folded. */
const MEANING: ReadonlyMap<string, string> = (() => {
  const out = new Map<string, string>();
  for (const [english, [nepali, ...others]] of Object.entries(GLOSSARY)) {
    const n = nepali.normalize('NFC');
    for (const w of [english, n, ...others.map((o) => o.normalize('NFC'))]) if (!out.has(w)) out.set(w, n);
  }
  return out;
})();

/** The digits of either script, and the Devanagari ones as 0–9 for a key. */
const NUMBER = /^[0-9०-९]+$/;
const DEVA_DIGITS = '०१२३४५६७८९';

/**
 * The keys a folded word of a name or a query is matched by across scripts: its phonetic keys
 * (`lang/translit.ts` `phoneticKeys`); for a word of the glossary also `=` and the Nepali word
 * it means (`temple`, `mandir` and `मन्दिर` all have `=मन्दिर`; `house` matches both घर and
 * हाउस); for a number `=` and its digits 0–9 (२ and 2 both have `=2`); and for an
 * abbreviation `@` and its letters: a Latin word of up to `ABBREVIATION` letters, a Devanagari
 * word that spells Latin letters out (`sbi` and `एसबीआई` both have `@sbi`).
 */
export function matchKeys(word: string): string[] {
  if (NUMBER.test(word)) return [`=${[...word].map((c) => (DEVA_DIGITS.includes(c) ? DEVA_DIGITS.indexOf(c) : c)).join('')}`];
  const meaning = MEANING.get(word);
  const out = phoneticKeys(word);
  if (meaning !== undefined) out.push(`=${meaning}`);
  const letters = /^[a-z]+$/.test(word) ? (word.length <= ABBREVIATION ? word : undefined) : spelledLetters(stem(word));
  if (letters !== undefined) out.push(`@${letters}`);
  return out;
}

/** Longest Latin word read as an abbreviation too (KKFC केकेएफसी). */
export const ABBREVIATION = 5;
