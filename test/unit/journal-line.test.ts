import fc from 'fast-check';
import { type AuditRecord, journalLine } from '../../src/audit/audit-lines';

/** The line as JSON.stringify wrote it before it was written field by field: the reader's contract. */
function stringified(record: AuditRecord, id: string): string {
  return JSON.stringify({
    id,
    at: record.at.toISOString(),
    caller: record.caller,
    address: record.address,
    operation: record.operation,
    binding: record.binding,
    outcome: record.outcome,
    students: record.students,
    teachers: record.teachers,
    classes: record.classes,
  });
}

const ids = fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { maxLength: 12 });
// Any text, quotes, backslashes, controls, lone surrogates and line ends among it.
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\n', '\u2028', '\ud800'));
const records = fc.record({
  at: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
  caller: text,
  address: text,
  operation: text,
  binding: text,
  outcome: fc.constantFrom('ok' as const, 'failed' as const),
  students: ids,
  teachers: ids,
  classes: ids,
});

describe('a call journal line', () => {
  test('is byte for byte what JSON.stringify of the call writes, whatever its texts hold', () => {
    fc.assert(
      fc.property(records, text, (record, id) => {
        expect(journalLine(record, id)).toBe(stringified(record, id));
      }),
      { numRuns: 2000 },
    );
  });

  test('calls of the same millisecond and of the next each carry their own time', () => {
    const call = (at: string): AuditRecord => ({
      at: new Date(at),
      caller: 'portal',
      address: '127.0.0.1',
      operation: 'HelloWorld',
      binding: 'soap11',
      outcome: 'ok',
      students: [],
      teachers: [],
      classes: [],
    });
    const times = ['2026-11-26T10:00:00.100Z', '2026-11-26T10:00:00.100Z', '2026-11-26T10:00:00.101Z'];
    expect(times.map((at) => JSON.parse(journalLine(call(at), 'run/1')).at)).toEqual(times);
  });
});
