import { MAX_TEXT_LENGTH } from '../fields';
import type { AsyncRowsOf } from './collection';
import { type FilledRow, OWN_COMMON_COLUMNS, type OwnFileCollection, ownCells, streamedRows } from './own-file';

/** studentNotes.csv: a note a teacher wrote about a student, of a note type. */
const COLUMNS = [
  ...OWN_COMMON_COLUMNS,
  'studentSourcedId',
  'noteTypeSourcedId',
  'teacherSourcedId',
  'date',
  'text',
] as const;

type Column = (typeof COLUMNS)[number];

export const studentNotes = {
  name: 'studentNotes',
  table: 'student_notes',
  columns: COLUMNS,
  required: ['sourcedId', 'studentSourcedId', 'noteTypeSourcedId', 'teacherSourcedId', 'date', 'text'],
  read: (reader, resolve): FilledRow<'student_notes'> => ({
    student_id: resolve('studentSourcedId', ['students'], 'student'),
    note_type_id: resolve('noteTypeSourcedId', ['note_types'], 'note type'),
    teacher_id: resolve('teacherSourcedId', ['teachers'], 'teacher'),
    written_on: reader.date('date', true),
    text: reader.required('text', MAX_TEXT_LENGTH),
  }),
  export: {
    reads: { whole: ['students', 'note_types', 'teachers'], paged: ['student_notes'] },
    header: COLUMNS,
    async *rows({ school }): AsyncRowsOf<Column> {
      for await (const row of streamedRows(school, 'student_notes')) {
        yield {
          studentSourcedId: school.ref('students', row.student_id),
          noteTypeSourcedId: school.ref('note_types', row.note_type_id),
          teacherSourcedId: school.ref('teachers', row.teacher_id),
          date: row.written_on,
          text: row.text,
          ...ownCells(school, 'student_notes', row),
        };
      }
    },
  },
} as const satisfies OwnFileCollection<'studentNotes', 'student_notes', Column>;
