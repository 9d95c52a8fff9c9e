import { recordsNamedIn } from '../../src/migration/named-records';

/**
 * The records a legacy answer names, for the audit trail: read from XML and JSON by field name,
 * within budgets, so that another service's answer, however built, costs little and stops nothing.
 */
const answer = (body: string, contentType = 'text/xml; charset=utf-8') => ({
  status: 200,
  headers: { 'content-type': contentType },
  body: Buffer.from(body, 'utf8'),
});

describe('records named in a legacy answer', () => {
  test('XML fields by local name, whatever the prefix; text that is not an id is no record', () => {
    const xml =
      '<s:Envelope xmlns:s="urn:s"><s:Body><R xmlns="urn:t"><t:StudentId xmlns:t="urn:t"> 42 </t:StudentId>' +
      '<ClassId>7</ClassId><TeacherId>x</TeacherId><StudentId>0</StudentId><Note>StudentId 9</Note></R>' +
      '</s:Body></s:Envelope>';
    expect(recordsNamedIn(answer(xml))).toEqual({ student: [42], teacher: [], class: [7] });
  });

  test('JSON members at any depth, numbers or digits as text', () => {
    const json = JSON.stringify({
      d: [
        { StudentId: 5, Marks: [{ ClassId: '8' }] },
        { TeacherId: 3, Name: 'StudentId' },
      ],
    });
    expect(recordsNamedIn(answer(json, 'application/json'))).toEqual({ student: [5], teacher: [3], class: [8] });
  });

  test('an answer nested 20,000 deep, or naming 50,000 ids, is read within its budget, quickly', () => {
    const deep = `${'<a>'.repeat(20_000)}<StudentId>1</StudentId>${'</a>'.repeat(20_000)}`;
    const many = `<R>${'<StudentId>3</StudentId>'.repeat(50_000)}</R>`;
    const deepJson = `${'{"a":'.repeat(20_000)}{"StudentId":1}${'}'.repeat(20_000)}`;
    const started = process.hrtime.bigint();
    expect(recordsNamedIn(answer(deep)).student).toEqual([1]);
    expect(recordsNamedIn(answer(many)).student.length).toBeLessThanOrEqual(5_000);
    expect(recordsNamedIn(answer(deepJson, 'application/json')).student.length).toBeLessThanOrEqual(1);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2_000);
  });

  test('a body that is neither, or broken, names nothing', () => {
    expect(recordsNamedIn(answer('Server was unable to process request.', 'text/plain'))).toEqual({
      student: [],
      teacher: [],
      class: [],
    });
    expect(recordsNamedIn(answer('{"StudentId":', 'application/json')).student).toEqual([]);
    expect(recordsNamedIn(answer('<!DOCTYPE x [<!ENTITY e "1">]><StudentId>&e;</StudentId>')).student).toEqual([]);
  });
});
