import type { Kysely } from 'kysely';
import type { Engine } from '../engine';

/**
 * An exam's slots found by class: a caller scoped to a few classes asks for an exam's slots in
 * those classes only, one lookup a class, which finds nothing alike for an exam outside its
 * classes and for an unknown one, so that the time of the answer cannot tell them apart.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.createIndex('exam_slots_class_exam').on('exam_slots').columns(['class_id', 'exam_id']).execute();
}
