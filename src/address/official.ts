/**
 * Nepal's 7 provinces and 77 districts by their official names in English and in Nepali, for
 * addresses in either language (OSM's district boundaries carry `name:ne` such as
 * "काठमाडौं जिल्ला", with the word district, or nothing; nepal-geojson's table only upper-case
 * English).
 *
 * Source: the Constitution of Nepal (2015), Schedule 4 (the districts of each province, as
 * amended for the split of Nawalparasi and Rukum), the provinces' names as their assemblies
 * adopted them (2018–2023), and the Nepali spellings of the Government of Nepal's district
 * lists (Ministry of Federal Affairs and General Administration). `also`: other spellings an
 * OSM boundary, an `addr:*` tag or nepal-geojson uses for the same district.
 */

/** An official name in both scripts. */
export interface OfficialName {
  en: string;
  ne: string;
}

/** A province, numbered as nepal-geojson numbers them (1 Koshi … 7 Sudurpashchim). */
export interface Province extends OfficialName {
  also: readonly string[];
}

/** A district and its province's number. */
export interface District extends OfficialName {
  province: number;
  also: readonly string[];
}

/** The provinces, by number (index 0 is province 1). */
export const PROVINCES: readonly Province[] = [
  { en: 'Koshi Province', ne: 'कोशी प्रदेश', also: ['Koshi', 'Kosi', 'Province No. 1', 'Province 1'] },
  { en: 'Madhesh Province', ne: 'मधेश प्रदेश', also: ['Madhesh', 'Madhes', 'Madhesh Pradesh', 'Province No. 2', 'Province 2'] },
  { en: 'Bagmati Province', ne: 'बागमती प्रदेश', also: ['Bagmati', 'Bagmati Pradesh', 'Province No. 3', 'Province 3'] },
  { en: 'Gandaki Province', ne: 'गण्डकी प्रदेश', also: ['Gandaki', 'Gandaki Pradesh', 'Province No. 4', 'Province 4'] },
  { en: 'Lumbini Province', ne: 'लुम्बिनी प्रदेश', also: ['Lumbini', 'Lumbini Pradesh', 'Province No. 5', 'Province 5'] },
  { en: 'Karnali Province', ne: 'कर्णाली प्रदेश', also: ['Karnali', 'Karnali Pradesh', 'Province No. 6', 'Province 6'] },
  {
    en: 'Sudurpashchim Province',
    ne: 'सुदूरपश्चिम प्रदेश',
    also: ['Sudurpashchim', 'Sudurpaschim', 'Sudur Paschim', 'Far-Western Province', 'Province No. 7', 'Province 7'],
  },
];

const d = (en: string, ne: string, province: number, ...also: string[]): District => ({ en, ne, province, also });

/** The 77 districts, province by province. */
export const DISTRICTS: readonly District[] = [
  // Koshi
  d('Taplejung', 'ताप्लेजुङ', 1),
  d('Panchthar', 'पाँचथर', 1),
  d('Ilam', 'इलाम', 1, 'Illam'),
  d('Jhapa', 'झापा', 1),
  d('Morang', 'मोरङ', 1),
  d('Sunsari', 'सुनसरी', 1),
  d('Dhankuta', 'धनकुटा', 1),
  d('Terhathum', 'तेह्रथुम', 1, 'Tehrathum'),
  d('Sankhuwasabha', 'सङ्खुवासभा', 1, 'संखुवासभा'),
  d('Bhojpur', 'भोजपुर', 1),
  d('Solukhumbu', 'सोलुखुम्बु', 1),
  d('Okhaldhunga', 'ओखलढुङ्गा', 1),
  d('Khotang', 'खोटाङ', 1),
  d('Udayapur', 'उदयपुर', 1),
  // Madhesh
  d('Saptari', 'सप्तरी', 2),
  d('Siraha', 'सिरहा', 2),
  d('Dhanusha', 'धनुषा', 2, 'Dhanusa'),
  d('Mahottari', 'महोत्तरी', 2),
  d('Sarlahi', 'सर्लाही', 2),
  d('Rautahat', 'रौतहट', 2),
  d('Bara', 'बारा', 2),
  d('Parsa', 'पर्सा', 2),
  // Bagmati
  d('Dolakha', 'दोलखा', 3),
  d('Sindhupalchok', 'सिन्धुपाल्चोक', 3, 'Sindhupalchowk'),
  d('Rasuwa', 'रसुवा', 3),
  d('Dhading', 'धादिङ', 3),
  d('Nuwakot', 'नुवाकोट', 3),
  d('Kathmandu', 'काठमाडौं', 3, 'काठमाडौँ'),
  d('Bhaktapur', 'भक्तपुर', 3),
  d('Lalitpur', 'ललितपुर', 3),
  d('Kavrepalanchok', 'काभ्रेपलाञ्चोक', 3, 'Kavrepalanchowk', 'Kabhrepalanchok', 'Kavre'),
  d('Ramechhap', 'रामेछाप', 3),
  d('Sindhuli', 'सिन्धुली', 3),
  d('Makwanpur', 'मकवानपुर', 3, 'Makawanpur'),
  d('Chitwan', 'चितवन', 3, 'Chitawan'),
  // Gandaki
  d('Gorkha', 'गोरखा', 4),
  d('Manang', 'मनाङ', 4),
  d('Mustang', 'मुस्ताङ', 4),
  d('Myagdi', 'म्याग्दी', 4),
  d('Kaski', 'कास्की', 4),
  d('Lamjung', 'लमजुङ', 4),
  d('Tanahun', 'तनहुँ', 4, 'Tanahu'),
  d('Nawalparasi (Bardaghat Susta East)', 'नवलपरासी (बर्दघाट सुस्ता पूर्व)', 4, 'Nawalpur', 'Nawalparasi East', 'नवलपुर'),
  d('Syangja', 'स्याङ्जा', 4),
  d('Parbat', 'पर्वत', 4),
  d('Baglung', 'बागलुङ', 4),
  // Lumbini
  d('Rukum (East)', 'रुकुम (पूर्वी भाग)', 5, 'Eastern Rukum', 'Rukum East', 'पूर्वी रुकुम'),
  d('Rolpa', 'रोल्पा', 5),
  d('Pyuthan', 'प्युठान', 5),
  d('Gulmi', 'गुल्मी', 5),
  d('Arghakhanchi', 'अर्घाखाँची', 5),
  d('Palpa', 'पाल्पा', 5),
  d('Nawalparasi (Bardaghat Susta West)', 'नवलपरासी (बर्दघाट सुस्ता पश्चिम)', 5, 'Parasi', 'Nawalparasi West', 'परासी'),
  d('Rupandehi', 'रुपन्देही', 5),
  d('Kapilvastu', 'कपिलवस्तु', 5, 'Kapilbastu'),
  d('Dang', 'दाङ', 5, 'Dang Deukhuri'),
  d('Banke', 'बाँके', 5),
  d('Bardiya', 'बर्दिया', 5),
  // Karnali
  d('Dolpa', 'डोल्पा', 6),
  d('Mugu', 'मुगु', 6),
  d('Humla', 'हुम्ला', 6),
  d('Jumla', 'जुम्ला', 6),
  d('Kalikot', 'कालिकोट', 6),
  d('Dailekh', 'दैलेख', 6),
  d('Jajarkot', 'जाजरकोट', 6),
  d('Rukum (West)', 'रुकुम (पश्चिम भाग)', 6, 'Western Rukum', 'Rukum West', 'पश्चिमी रुकुम'),
  d('Salyan', 'सल्यान', 6),
  d('Surkhet', 'सुर्खेत', 6),
  // Sudurpashchim
  d('Bajura', 'बाजुरा', 7),
  d('Bajhang', 'बझाङ', 7),
  d('Darchula', 'दार्चुला', 7),
  d('Baitadi', 'बैतडी', 7),
  d('Dadeldhura', 'डडेल्धुरा', 7),
  d('Doti', 'डोटी', 7),
  d('Achham', 'अछाम', 7),
  d('Kailali', 'कैलाली', 7),
  d('Kanchanpur', 'कञ्चनपुर', 7),
];

// Words around a name that do not tell districts or provinces apart.
const NOISE = /\b(?:district|province|pradesh)\b|जिल्ला|प्रदेश|[\s.,()\-_]+/giu;

/** A name as matched: lower case, canonically composed, without "district"/"province" and their Nepali words, spaces or punctuation. */
function key(s: string): string {
  return s.normalize('NFC').toLowerCase().replace(NOISE, '');
}

function table<T extends OfficialName & { also: readonly string[] }>(list: readonly T[]): Map<string, T> {
  const out = new Map<string, T>();
  for (const x of list) for (const n of [x.en, x.ne, ...x.also]) out.set(key(n), x);
  return out;
}
const DISTRICT_KEYS = table(DISTRICTS);
const PROVINCE_KEYS = table(PROVINCES);

/** The district a name stands for (any spelling of `also`, either script, with or without "district"), or undefined. */
export function officialDistrict(name: string): District | undefined {
  return DISTRICT_KEYS.get(key(name));
}

/** The province a name stands for (`also`, either script, with or without "province"), or undefined. */
export function officialProvince(name: string): Province | undefined {
  return PROVINCE_KEYS.get(key(name));
}
