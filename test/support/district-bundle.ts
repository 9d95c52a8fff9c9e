import { type BundleRows, smallSchool } from './roster-bundle';

/**
 * A district's export of two schools: the small school (sch-1, Al-Amal, no identifier) and Al-Noor
 * (sch-2, identifier NOOR) with a class, an art class, a student of its own and a teacher of both
 * schools, under the district org dist-1.
 */
export function districtBundle(): BundleRows {
  const rows = smallSchool();
  rows.orgs.push({
    sourcedId: 'sch-2',
    name: 'مدرسة النور',
    type: 'school',
    parentSourcedId: 'dist-1',
    'metadata.nameEn': 'Al-Noor School',
    identifier: 'NOOR',
  });
  rows.courses.push({ sourcedId: 'c-art', title: 'الفنون', courseCode: 'ART', orgSourcedId: 'sch-2' });
  const homeroom = rows.classes.find((row) => row.sourcedId === 'hr-7a');
  rows.classes.push(
    { ...homeroom, sourcedId: 'hr-2', title: 'Noor 7', classCode: '7N', schoolSourcedId: 'sch-2' } as Record<
      string,
      string
    >,
    {
      ...homeroom,
      sourcedId: 'art-2',
      title: 'Art 7N',
      courseSourcedId: 'c-art',
      classType: 'scheduled',
      schoolSourcedId: 'sch-2',
      termSourcedIds: 't1',
      classCode: '',
    } as Record<string, string>,
  );
  const student = rows.users.find((row) => row.sourcedId === 's3');
  rows.users.push({ ...student, sourcedId: 's9', orgSourcedIds: 'sch-2', agentSourcedIds: '' } as Record<
    string,
    string
  >);
  const teacher = rows.users.find((row) => row.sourcedId === 't-1');
  if (teacher) teacher.orgSourcedIds = 'sch-1,sch-2';
  const enrol = (sourcedId: string, klass: string, user: string, role: string) => ({
    sourcedId,
    classSourcedId: klass,
    schoolSourcedId: 'sch-2',
    userSourcedId: user,
    role,
    beginDate: '',
  });
  rows.enrollments.push(enrol('e20', 'hr-2', 's9', 'student'), enrol('e21', 'art-2', 's9', 'student'));
  rows.enrollments.push(enrol('e22', 'art-2', 't-1', 'teacher'));
  return rows;
}
