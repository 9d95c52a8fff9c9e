import type { BulkWriter } from '../store/bulk-writer';
import type { TermPlan } from './calendar';
import { ABSENCE_TYPES, ASSESSMENTS, GRADE_NAMES_AR, NOTE_TYPES, SUBJECTS } from './fixed-lists';

/**
 * The rows every demo school starts from, before any class or person: the school, its academic
 * year and terms, the grade levels, subjects, assessment categories, absence and note types.
 */
export async function writeReferenceRows(
  writer: BulkWriter,
  startYear: number,
  terms: readonly TermPlan[],
): Promise<void> {
  await writer.insert('schools', [{ id: 1, name_ar: 'مدارس النور الأهلية', name_en: 'Al-Noor Private Schools' }]);
  await writer.insert('academic_years', [
    {
      id: 1,
      name: `${startYear}/${startYear + 1}`,
      starts_on: terms[0].startsOn,
      ends_on: terms[2].endsOn,
    },
  ]);
  await writer.insert(
    'terms',
    terms.map((term, index) => ({
      id: index + 1,
      academic_year_id: 1,
      name_ar: term.nameAr,
      name_en: term.nameEn,
      starts_on: term.startsOn,
      ends_on: term.endsOn,
    })),
  );
  await writer.insert(
    'grade_levels',
    GRADE_NAMES_AR.map((nameAr, index) => ({
      id: index + 1,
      ordinal: index + 1,
      name_ar: `الصف ${nameAr}`,
      name_en: `Grade ${index + 1}`,
    })),
  );
  await writer.insert(
    'subjects',
    SUBJECTS.map((subject, index) => ({
      id: index + 1,
      code: subject.code,
      name_ar: subject.nameAr,
      name_en: subject.nameEn,
    })),
  );
  await writer.insert(
    'assessment_categories',
    ASSESSMENTS.map(([nameAr, nameEn], index) => ({ id: index + 1, name_ar: nameAr, name_en: nameEn })),
  );
  await writer.insert(
    'absence_types',
    ABSENCE_TYPES.map(([nameAr, nameEn], index) => ({ id: index + 1, name_ar: nameAr, name_en: nameEn })),
  );
  await writer.insert(
    'note_types',
    NOTE_TYPES.map(([nameAr, nameEn, positive], index) => ({
      id: index + 1,
      name_ar: nameAr,
      name_en: nameEn,
      is_positive: positive ? 1 : 0,
    })),
  );
}
