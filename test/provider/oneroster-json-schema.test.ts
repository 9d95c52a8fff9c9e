import { schemaProblems } from '../support/oneroster-json-schema';

/** The conformance tests' checker of 1.2 records: it names what is missing or of the wrong shape. */
const ref = (sourcedId: string, type: string) => ({ href: `https://x/${sourcedId}`, sourcedId, type });
const result = {
  sourcedId: 'r1',
  status: 'active',
  dateLastModified: '2026-11-01T10:00:00.000Z',
  lineItem: ref('li1', 'lineItem'),
  student: ref('s1', 'user'),
  scoreStatus: 'fully graded',
  score: 8.5,
  scoreDate: '2026-10-08T00:00:00.000Z',
};

test.each<[string, Record<string, unknown>, string[]]>([
  ['a record of the binding’s shape', result, []],
  ['a required member missing', { ...result, student: undefined }, ['result.student: missing']],
  ['a value out of its list', { ...result, scoreStatus: 'done' }, ['result.scoreStatus: "done"']],
  [
    'a reference without its href',
    { ...result, lineItem: { sourcedId: 'li1' } },
    ['result.lineItem: {"sourcedId":"li1"}'],
  ],
  ['an empty date', { ...result, scoreDate: '' }, ['result.scoreDate: ""']],
  ['a score as text', { ...result, score: '8.5' }, ['result.score: "8.5"']],
])('%s', (_name, record, problems) => {
  expect(schemaProblems('result', record)).toEqual(problems);
});

test('a kind it has no schema for is a problem, not a pass', () => {
  expect(schemaProblems('widget', {})).toEqual(['no schema for widget']);
});
