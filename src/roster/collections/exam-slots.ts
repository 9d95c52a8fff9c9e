import type { AsyncRowsOf } from './collection';
import {
  type FilledRow,
  OWN_COMMON_COLUMNS,
  type OwnFileCollection,
  type OwnFileReader,
  ownCells,
  streamedRows,
} from './own-file';

/** examSlots.csv: a class's exam in a subject, on a day, from a time to a later one, in a room. */
const COLUMNS = [
  ...OWN_COMMON_COLUMNS,
  'examSourcedId',
  'classSourcedId',
  'courseSourcedId',
  'date',
  'startTime',
  'endTime',
  'room',
] as const;

type Column = (typeof COLUMNS)[number];

const read: OwnFileReader<'exam_slots', Column> = (reader, resolve): FilledRow<'exam_slots'> => {
  const startsAt = reader.time('startTime', true);
  const endsAt = reader.time('endTime', true);
  if (startsAt && endsAt && endsAt <= startsAt) reader.fail('endTime', 'bad-date', 'endTime is not after startTime');
  return {
    exam_id: resolve('examSourcedId', ['exams'], 'exam'),
    class_id: resolve('classSourcedId', ['classes'], 'homeroom class'),
    subject_id: resolve('courseSourcedId', ['subjects'], 'course'),
    held_on: reader.date('date', true),
    starts_at: startsAt,
    ends_at: endsAt,
    room: reader.text('room'),
  };
};

export const examSlots = {
  name: 'examSlots',
  table: 'exam_slots',
  columns: COLUMNS,
  required: ['sourcedId', 'examSourcedId', 'classSourcedId', 'courseSourcedId', 'date', 'startTime', 'endTime'],
  read,
  export: {
    reads: { whole: ['exams', 'classes', 'subjects'], paged: ['exam_slots'] },
    header: COLUMNS,
    async *rows({ school }): AsyncRowsOf<Column> {
      for await (const row of streamedRows(school, 'exam_slots')) {
        yield {
          examSourcedId: school.ref('exams', row.exam_id),
          classSourcedId: school.ref('classes', row.class_id),
          courseSourcedId: school.ref('subjects', row.subject_id),
          date: row.held_on,
          startTime: row.starts_at,
          endTime: row.ends_at,
          room: row.room,
          ...ownCells(school, 'exam_slots', row),
        };
      }
    },
  },
} as const satisfies OwnFileCollection<'examSlots', 'exam_slots', Column>;
