/** The fixed lists a demo school is built from: grades, subjects, absence and note types. */

export const GRADE_NAMES_AR = [
  'الأول',
  'الثاني',
  'الثالث',
  'الرابع',
  'الخامس',
  'السادس',
  'السابع',
  'الثامن',
  'التاسع',
  'العاشر',
  'الحادي عشر',
  'الثاني عشر',
];

export const SECTIONS: ReadonlyArray<readonly [arabic: string, english: string]> = [
  ['أ', 'A'],
  ['ب', 'B'],
  ['ج', 'C'],
  ['د', 'D'],
  ['هـ', 'E'],
  ['و', 'F'],
  ['ز', 'G'],
  ['ح', 'H'],
  ['ط', 'I'],
  ['ي', 'J'],
  ['ك', 'K'],
  ['ل', 'L'],
  ['م', 'M'],
  ['ن', 'N'],
  ['س', 'O'],
  ['ع', 'P'],
  ['ف', 'Q'],
  ['ص', 'R'],
  ['ق', 'S'],
  ['ر', 'T'],
];

export interface SubjectDefinition {
  readonly code: string;
  readonly nameAr: string;
  readonly nameEn: string;
  /** Grades (1 to 12) that study it. */
  readonly grades: readonly [from: number, to: number];
}

export const SUBJECTS: readonly SubjectDefinition[] = [
  { code: 'ARB', nameAr: 'اللغة العربية', nameEn: 'Arabic Language', grades: [1, 12] },
  { code: 'ENG', nameAr: 'اللغة الإنجليزية', nameEn: 'English Language', grades: [1, 12] },
  { code: 'MTH', nameAr: 'الرياضيات', nameEn: 'Mathematics', grades: [1, 12] },
  { code: 'ISL', nameAr: 'الدراسات الإسلامية', nameEn: 'Islamic Studies', grades: [1, 12] },
  { code: 'SCI', nameAr: 'العلوم', nameEn: 'Science', grades: [1, 9] },
  { code: 'SOC', nameAr: 'الدراسات الاجتماعية', nameEn: 'Social Studies', grades: [1, 9] },
  { code: 'ART', nameAr: 'التربية الفنية', nameEn: 'Art', grades: [1, 6] },
  { code: 'PE', nameAr: 'التربية البدنية', nameEn: 'Physical Education', grades: [1, 12] },
  { code: 'CS', nameAr: 'الحاسب الآلي', nameEn: 'Computer Science', grades: [7, 12] },
  { code: 'PHY', nameAr: 'الفيزياء', nameEn: 'Physics', grades: [10, 12] },
  { code: 'CHM', nameAr: 'الكيمياء', nameEn: 'Chemistry', grades: [10, 12] },
  { code: 'BIO', nameAr: 'الأحياء', nameEn: 'Biology', grades: [10, 12] },
];

export const ABSENCE_TYPES: ReadonlyArray<readonly [arabic: string, english: string]> = [
  ['غياب بعذر طبي', 'Sick leave'],
  ['غياب بعذر', 'Excused absence'],
  ['غياب بدون عذر', 'Unexcused absence'],
  ['سفر', 'Travel'],
  ['ظرف عائلي', 'Family matter'],
];

export const NOTE_TYPES: ReadonlyArray<readonly [arabic: string, english: string, positive: boolean]> = [
  ['مشاركة متميزة', 'Excellent participation', true],
  ['تفوق دراسي', 'Outstanding achievement', true],
  ['مساعدة الزملاء', 'Helpful to classmates', true],
  ['عدم حل الواجب', 'Homework not done', false],
  ['سلوك غير منضبط', 'Disruptive behaviour', false],
  ['تأخر عن الحصة', 'Late to class', false],
];

/** Per term: the assessments of each class and subject, with their maximum scores. */
export const ASSESSMENTS: ReadonlyArray<readonly [arabic: string, english: string, maxScore: number]> = [
  ['اختبار قصير', 'Quiz', 10],
  ['اختبار منتصف الفصل', 'Midterm test', 30],
  ['الاختبار النهائي', 'Final exam', 60],
];

export const NOTE_SENTENCES_AR = [
  'شارك الطالب بفاعلية في نقاش الصف اليوم.',
  'يحتاج الطالب إلى مراجعة الدروس السابقة.',
  'أحسن الطالب في عرض مشروعه أمام الزملاء.',
  'لم يحضر الطالب أدواته المدرسية.',
  'تحسن ملحوظ في مستوى الطالب هذا الأسبوع.',
];

export const CLASS_NOTES: ReadonlyArray<readonly [title: string, text: string]> = [
  ['رحلة مدرسية', 'تقام رحلة مدرسية إلى المتحف الوطني يوم الخميس القادم، يرجى إحضار الموافقة الموقعة.'],
  ['اجتماع أولياء الأمور', 'يعقد اجتماع أولياء الأمور يوم الأحد الساعة 6 مساءً في قاعة المدرسة.'],
  ['Science fair', 'The science fair opens next week; projects are due on Monday.'],
  ['جدول الاختبارات', 'نُشر جدول اختبارات الفصل، يرجى الاطلاع عليه في البوابة.'],
  ['Library books', 'Please return all library books before the end of the term.'],
  ['اليوم الرياضي', 'يقام اليوم الرياضي السنوي يوم الثلاثاء، الزي الرياضي إلزامي.'],
];
