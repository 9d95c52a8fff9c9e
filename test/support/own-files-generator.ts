import fc from 'fast-check';
import { textValue } from './generated-values';
import type { BundleRows } from './roster-bundle';
import type { GeneratedSchool, Row } from './school-generator';

/**
 * The service's own files for a generated school (absence and note types, attendance, notes on
 * pupils and classes, exams): the free texts a school writes, with the same quotes, line breaks
 * and scripts as the roster's values, for the pupils who have a homeroom.
 */
const ownTexts = fc.record({
  absenceType: textValue,
  noteType: textValue,
  attendanceNote: fc.option(textValue, { nil: '' }),
  studentNote: textValue,
  classNoteTitle: textValue,
  classNote: textValue,
  exam: textValue,
  room: fc.option(textValue, { nil: '' }),
});

export function withOwnFiles(school: GeneratedSchool): fc.Arbitrary<BundleRows> {
  return ownTexts.map((texts) => {
    const rows = school.rows;
    const homeroom = (user: string) =>
      rows.enrollments.find(
        (row) =>
          row.userSourcedId === user &&
          row.status !== 'tobedeleted' &&
          rows.classes.some((klass) => klass.sourcedId === row.classSourcedId && klass.classType === 'homeroom'),
      )?.classSourcedId;
    const live = (role: string) => rows.users.filter((row) => row.role === role && row.status !== 'tobedeleted');
    const pupil = live('student').find((row) => homeroom(row.sourcedId) !== undefined);
    const teacher = live('teacher')[0];
    const klass = rows.classes.find((row) => row.classType === 'homeroom') as Row;
    const own: BundleRows = {
      absenceTypes: [{ sourcedId: 'at-1', name: texts.absenceType, nameEn: 'Sick leave' }],
      noteTypes: [{ sourcedId: 'nt-1', name: texts.noteType, nameEn: 'Good work', positive: 'true' }],
      exams: [{ sourcedId: 'ex-1', termSourcedId: 't1', name: texts.exam, nameEn: 'Midterms' }],
      examSlots: [
        {
          sourcedId: 'es-1',
          examSourcedId: 'ex-1',
          classSourcedId: klass.sourcedId,
          courseSourcedId: klass.courseSourcedId,
          date: '2026-11-01',
          startTime: '08:00',
          endTime: '10:00',
          room: texts.room,
        },
      ],
      classNotes: teacher
        ? [
            {
              sourcedId: 'cn-1',
              classSourcedId: klass.sourcedId,
              teacherSourcedId: teacher.sourcedId,
              date: '2026-10-08',
              title: texts.classNoteTitle,
              text: texts.classNote,
            },
          ]
        : [],
    };
    if (pupil) {
      own.attendance = [
        {
          sourcedId: 'a-1',
          studentSourcedId: pupil.sourcedId,
          classSourcedId: homeroom(pupil.sourcedId) as string,
          date: '2026-10-05',
          kind: 'absence',
          absenceTypeSourcedId: 'at-1',
          minutesLate: '',
          note: texts.attendanceNote,
        },
      ];
      if (teacher) {
        own.studentNotes = [
          {
            sourcedId: 'n-1',
            studentSourcedId: pupil.sourcedId,
            noteTypeSourcedId: 'nt-1',
            teacherSourcedId: teacher.sourcedId,
            date: '2026-10-07',
            text: texts.studentNote,
          },
        ];
      }
    }
    return { ...rows, ...Object.fromEntries(Object.entries(own).filter(([, list]) => list.length > 0)) };
  });
}
