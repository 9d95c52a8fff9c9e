import { readdirSync } from 'node:fs';
import type { RunningService } from '../../src/service';
import { makeTestDistrict, type TestDistrict, withStoreAt } from '../support/district';
import { describeEachEngine } from '../support/engines';
import { startTestService } from '../support/service';
import { envelope11, NS, post } from '../support/soap';
import { TEST_TODAY } from '../support/stores';

/**
 * The audit trails of a district's schools share the process's one writer thread: opening schools
 * starts no thread, each school's calls are written to its own store, and a school closed (the
 * bound on open schools reached) and opened again writes through the same thread, the others
 * writing on meanwhile.
 */

const STUDENTS = '/GetStudentsInformation.asmx';
const SCHOOLS = ['/alpha', '/beta', '/gamma'];

function studentCall(baseUrl: string, studentId: number) {
  return post(
    baseUrl + STUDENTS,
    { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GetStudentInfoById"` },
    envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>`),
  );
}

/** The threads of this process (the service runs in it), as Linux lists them. */
const threadCount = () => readdirSync('/proc/self/task').length;

describeEachEngine('the audit writer thread a district shares', (engine) => {
  let district: TestDistrict;
  let service: RunningService;

  beforeAll(async () => {
    district = await makeTestDistrict(
      engine.freshStoreSettings(),
      SCHOOLS.map((path, index) => ({
        entry: { sourcedId: `org-${index}`, path },
        students: 20,
        seed: 31 + index,
      })),
    );
    service = await startTestService(
      { CONTRACT: 'typed', DEMO_DATA: 'off', SCHOOLS_OPEN_MAX: '2', ...district.settings },
      { now: () => TEST_TODAY },
    );
  });

  afterAll(async () => {
    await service?.close();
    district?.remove();
  });

  /** The students whose lookups a school's trail holds, one entry each. */
  const auditedStudents = (sourcedId: string) =>
    withStoreAt(district.storeOf(sourcedId), async (store) => {
      const rows = await store.db
        .selectFrom('audit_subjects')
        .select('subject_id')
        .where('kind', '=', 'student')
        .orderBy('subject_id')
        .execute();
      return rows.map((row) => row.subject_id);
    });

  it('opens schools without a writer thread each, and writes each school’s calls to its own store', async () => {
    // The first audited call of the deployment may start the shared thread; count from there.
    expect((await studentCall(`${service.url}/alpha`, 1)).status).toBe(200);
    await service.writeAudit();
    const threadsWithOne = threadCount();
    expect((await studentCall(`${service.url}/beta`, 2)).status).toBe(200);
    await service.writeAudit();
    expect(threadCount()).toBe(threadsWithOne);
    expect(await auditedStudents('org-0')).toEqual([1]);
    expect(await auditedStudents('org-1')).toEqual([2]);
  });

  it('writes through the same thread for a school closed and opened again, the others writing meanwhile', async () => {
    const threads = threadCount();
    // Two open at most: gamma's opening closes the school used least recently (alpha), whose trail leaves the thread.
    expect((await studentCall(`${service.url}/gamma`, 3)).status).toBe(200);
    expect((await studentCall(`${service.url}/beta`, 4)).status).toBe(200);
    await service.writeAudit();
    expect((await studentCall(`${service.url}/alpha`, 5)).status).toBe(200);
    await service.writeAudit();
    expect(threadCount()).toBe(threads);
    expect(await auditedStudents('org-0')).toEqual([1, 5]);
    expect(await auditedStudents('org-1')).toEqual([2, 4]);
    expect(await auditedStudents('org-2')).toEqual([3]);
  });
});
