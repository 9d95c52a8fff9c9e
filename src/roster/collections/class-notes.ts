import { MAX_TEXT_LENGTH } from '../fields';
import type { AsyncRowsOf } from './collection';
import { type FilledRow, OWN_COMMON_COLUMNS, type OwnFileCollection, ownCells, streamedRows } from './own-file';

/** classNotes.csv: a note a teacher posted to a homeroom class. */
const COLUMNS = [...OWN_COMMON_COLUMNS, 'classSourcedId', 'teacherSourcedId', 'date', 'title', 'text'] as const;

type Column = (typeof COLUMNS)[number];

export const classNotes = {
  name: 'classNotes',
  table: 'class_notes',
  columns: COLUMNS,
  required: ['sourcedId', 'classSourcedId', 'teacherSourcedId', 'date', 'title', 'text'],
  read: (reader, resolve): FilledRow<'class_notes'> => ({
    class_id: resolve('classSourcedId', ['classes'], 'homeroom class'),
    teacher_id: resolve('teacherSourcedId', ['teachers'], 'teacher'),
    posted_on: reader.date('date', true),
    title: reader.required('title'),
    text: reader.required('text', MAX_TEXT_LENGTH),
  }),
  export: {
    reads: { whole: ['classes', 'teachers'], paged: ['class_notes'] },
    header: COLUMNS,
    async *rows({ school }): AsyncRowsOf<Column> {
      for await (const row of streamedRows(school, 'class_notes')) {
        yield {
          classSourcedId: school.ref('classes', row.class_id),
          teacherSourcedId: school.ref('teachers', row.teacher_id),
          date: row.posted_on,
          title: row.title,
          text: row.text,
          ...ownCells(school, 'class_notes', row),
        };
      }
    },
  },
} as const satisfies OwnFileCollection<'classNotes', 'class_notes', Column>;
