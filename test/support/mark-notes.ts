import type { Store } from '../../src/store/open-store';

/** An assessment SendMarkNotes is asked about, and the parameters that name it. */
export interface NotedAssessment {
  readonly id: number;
  readonly class_id: number;
  readonly subject_id: number;
  readonly max_score: number;
}

/** One mark and one device of a guardian of the student who got it: a push SendMarkNotes owes. */
export interface OwedPush {
  readonly score: number;
  readonly push_token: string;
  readonly application_id: string;
  readonly device_id: string;
}

/**
 * What SendMarkNotes owes for the store's first (or last) assessment, read straight from the
 * tables, not through the service: the assessment, and a push per mark and guardian device.
 */
export async function owedMarkNotes(
  store: Store,
  which: 'first' | 'last',
): Promise<{ readonly assessment: NotedAssessment; readonly pushes: OwedPush[] }> {
  const assessment = await store.db
    .selectFrom('assessments')
    .select(['id', 'class_id', 'subject_id', 'max_score'])
    .orderBy('id', which === 'first' ? 'asc' : 'desc')
    .executeTakeFirstOrThrow();
  const pushes = await store.db
    .selectFrom('marks as m')
    .innerJoin('student_records as r', 'r.id', 'm.student_record_id')
    .innerJoin('student_guardians as g', 'g.student_id', 'r.student_id')
    .innerJoin('devices as d', 'd.guardian_id', 'g.guardian_id')
    .select(['m.score', 'd.push_token', 'd.application_id', 'd.device_id'])
    .where('m.assessment_id', '=', assessment.id)
    .execute();
  return { assessment, pushes };
}

/** The parameters of SendMarkNotes for an assessment, asked of the school at `baseUrlSchool`. */
export function markNotesParameters(assessment: NotedAssessment, baseUrlSchool: string) {
  return { id: String(assessment.id), id_class: String(assessment.class_id), baseUrlSchool };
}
