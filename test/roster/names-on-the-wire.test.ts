import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { ARABIC_STUDENT, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { startTestService } from '../support/service';
import { get, NS, soap11 } from '../support/soap';
import { openTestStore } from '../support/stores';

/** An Arabic name written in a CSV file reaches callers unchanged over SOAP, HTTP GET and JSON. */
describeEachEngine('an imported Arabic name on the wire', (engine) => {
  let service: RunningService;
  let studentId: number;
  const path = '/GetStudentsInformation.asmx';

  beforeAll(async () => {
    const settings = engine.freshStoreSettings();
    const store: Store = await openTestStore(settings);
    try {
      expect(problemsOf(await importBundle(store, writeBundle(smallSchool(), { bom: true, eol: '\r\n' })))).toEqual([]);
      const row = await store.db
        .selectFrom('roster_ids')
        .select('id')
        .where('kind', '=', 'students')
        .where('sourced_id', '=', ARABIC_STUDENT.sourcedId)
        .executeTakeFirstOrThrow();
      studentId = row.id;
    } finally {
      await store.close();
    }
    service = await startTestService({ ...settings, CONTRACT: 'typed' });
  });
  afterAll(() => service?.close());

  test('SOAP 1.1', async () => {
    const response = await soap11(
      `${service.url}${path}`,
      `<GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>`,
      `"${NS}GetStudentInfoById"`,
    );
    expect(response.status).toBe(200);
    expect(response.text).toContain(`<NameAr>${ARABIC_STUDENT.name}</NameAr>`);
  });

  test('HTTP GET', async () => {
    const response = await get(`${service.url}${path}/GetStudentInfoById?StudentId=${studentId}`);
    expect(response.status).toBe(200);
    expect(response.text).toContain(`<NameAr>${ARABIC_STUDENT.name}</NameAr>`);
    expect(response.text).toContain('<BirthDate>2013-04-02');
  });

  test('JSON', async () => {
    const response = await callJson(service.url, path, 'GetStudentInfoById', { StudentId: String(studentId) });
    expect(response.status).toBe(200);
    expect(response.body.d).toMatchObject({ NameAr: ARABIC_STUDENT.name, ClassNameAr: 'الصف السابع أ', GradeLevel: 7 });
  });

  test('a student whose roster has no demographics has a nil birth date, not an empty one', async () => {
    const other = await callJson(service.url, path, 'GetStudentInfoById', { StudentId: String(studentId + 2) });
    expect(other.body.d).toMatchObject({ NameAr: 'Omar Hassan', BirthDate: null });
    const typed = await get(`${service.url}${path}/GetStudentInfoById?StudentId=${studentId + 2}`);
    expect(typed.text).toContain('<BirthDate xsi:nil="true" />');
  });
});
