/**
 * Arabic names with their usual English spellings, so that a demo person's two names are the
 * same person. Pairs are [Arabic, English].
 */
export type NamePair = readonly [arabic: string, english: string];

export const MALE_FIRST_NAMES: readonly NamePair[] = [
  ['محمد', 'Mohammed'], ['أحمد', 'Ahmed'], ['عبدالله', 'Abdullah'], ['خالد', 'Khalid'], ['عمر', 'Omar'],
  ['علي', 'Ali'], ['يوسف', 'Yousef'], ['إبراهيم', 'Ibrahim'], ['حسن', 'Hassan'], ['حسين', 'Hussein'],
  ['فهد', 'Fahad'], ['سعد', 'Saad'], ['سلطان', 'Sultan'], ['فيصل', 'Faisal'], ['ماجد', 'Majed'],
  ['ناصر', 'Nasser'], ['طارق', 'Tariq'], ['زياد', 'Ziad'], ['سامي', 'Sami'], ['عادل', 'Adel'],
  ['مازن', 'Mazen'], ['راشد', 'Rashid'], ['بدر', 'Badr'], ['تركي', 'Turki'], ['نواف', 'Nawaf'],
  ['وليد', 'Waleed'], ['هشام', 'Hisham'], ['كريم', 'Karim'], ['مصطفى', 'Mustafa'], ['حمزة', 'Hamza'],
  ['أنس', 'Anas'], ['بلال', 'Bilal'], ['جمال', 'Jamal'], ['رامي', 'Rami'], ['سيف', 'Saif'],
  ['عمار', 'Ammar'], ['ياسر', 'Yasser'], ['إياد', 'Iyad'], ['مهند', 'Muhannad'], ['نبيل', 'Nabil'],
];

export const FEMALE_FIRST_NAMES: readonly NamePair[] = [
  ['فاطمة', 'Fatima'], ['عائشة', 'Aisha'], ['مريم', 'Maryam'], ['نورة', 'Noura'], ['سارة', 'Sara'],
  ['ليلى', 'Layla'], ['هدى', 'Huda'], ['رنا', 'Rana'], ['دانة', 'Dana'], ['لينا', 'Lina'],
  ['ريم', 'Reem'], ['جود', 'Joud'], ['شهد', 'Shahad'], ['لمى', 'Lama'], ['غادة', 'Ghada'],
  ['سلمى', 'Salma'], ['أمل', 'Amal'], ['هند', 'Hind'], ['منى', 'Mona'], ['نادية', 'Nadia'],
  ['رهف', 'Rahaf'], ['وعد', 'Waad'], ['أسماء', 'Asma'], ['خديجة', 'Khadija'], ['زينب', 'Zainab'],
  ['حلا', 'Hala'], ['تالا', 'Tala'], ['ياسمين', 'Yasmin'], ['بشرى', 'Bushra'], ['رغد', 'Raghad'],
  ['ملك', 'Malak'], ['جنى', 'Jana'], ['لجين', 'Lujain'], ['أروى', 'Arwa'], ['سمر', 'Samar'],
];

export const FAMILY_NAMES: readonly NamePair[] = [
  ['العتيبي', 'Al-Otaibi'], ['القحطاني', 'Al-Qahtani'], ['الشمري', 'Al-Shammari'], ['الحربي', 'Al-Harbi'],
  ['الزهراني', 'Al-Zahrani'], ['الغامدي', 'Al-Ghamdi'], ['الدوسري', 'Al-Dosari'], ['المطيري', 'Al-Mutairi'],
  ['العنزي', 'Al-Anazi'], ['السبيعي', 'Al-Subaie'], ['الشهري', 'Al-Shehri'], ['المالكي', 'Al-Malki'],
  ['الخالدي', 'Al-Khalidi'], ['النعيمي', 'Al-Nuaimi'], ['الهاشمي', 'Al-Hashimi'], ['الكعبي', 'Al-Kaabi'],
  ['المنصوري', 'Al-Mansouri'], ['البلوشي', 'Al-Balushi'], ['الراشد', 'Al-Rashed'], ['السالم', 'Al-Salem'],
  ['الحسيني', 'Al-Husseini'], ['الخطيب', 'Al-Khatib'], ['النجار', 'Al-Najjar'], ['الحداد', 'Al-Haddad'],
  ['العلي', 'Al-Ali'], ['الصالح', 'Al-Saleh'], ['البكري', 'Al-Bakri'], ['التميمي', 'Al-Tamimi'],
  ['الجابري', 'Al-Jabri'], ['الفارس', 'Al-Fares'],
];
