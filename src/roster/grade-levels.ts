import { GRADE_NAMES_AR } from '../demo/fixed-lists';

/**
 * The grades OneRoster names (the CEDS codes in classes' `grades`): their order and the names a
 * grade level gets when the bundle has no gradeLevels.csv to name it. "7" is taken as "07".
 */
const EARLY: ReadonlyArray<readonly [code: string, ordinal: number, arabic: string, english: string]> = [
  ['IT', -4, 'الرضع والأطفال الصغار', 'Infant/toddler'],
  ['PR', -3, 'ما قبل المدرسة', 'Preschool'],
  ['PK', -2, 'ما قبل الروضة', 'Prekindergarten'],
  ['TK', -1, 'الروضة الانتقالية', 'Transitional kindergarten'],
  ['KG', 0, 'الروضة', 'Kindergarten'],
];
const LATE: ReadonlyArray<readonly [code: string, ordinal: number, arabic: string, english: string]> = [
  ['13', 13, 'الصف الثالث عشر', 'Grade 13'],
  ['PS', 14, 'ما بعد الثانوية', 'Postsecondary'],
  ['UG', 15, 'غير مصنف', 'Ungraded'],
  ['Other', 16, 'أخرى', 'Other'],
];

export interface GradeLevel {
  readonly code: string;
  readonly ordinal: number;
  readonly nameAr: string;
  readonly nameEn: string;
}

export function gradeCode(text: string): string {
  return /^\d$/.test(text) ? `0${text}` : text;
}

export function standardGradeLevel(text: string): GradeLevel | undefined {
  const code = gradeCode(text);
  const number = /^\d\d$/.test(code) ? Number(code) : Number.NaN;
  if (number >= 1 && number <= 12) {
    return { code, ordinal: number, nameAr: `الصف ${GRADE_NAMES_AR[number - 1]}`, nameEn: `Grade ${number}` };
  }
  const named = [...EARLY, ...LATE].find(([candidate]) => candidate.toLowerCase() === code.toLowerCase());
  return named && { code: named[0], ordinal: named[1], nameAr: named[2], nameEn: named[3] };
}

/** The code an export writes for a grade level with no sourcedId of its own. */
export function codeForOrdinal(ordinal: number, id: number): string {
  if (ordinal >= 1 && ordinal <= 12) return String(ordinal).padStart(2, '0');
  return [...EARLY, ...LATE].find(([, candidate]) => candidate === ordinal)?.[0] ?? `grade-${id}`;
}
