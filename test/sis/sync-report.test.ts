import { describeSync } from '../../src/sis/sync-report';
import type { SyncOutcome } from '../../src/sis/sync-school';

/** The sync's summary line: counts with their nouns ("1 warning", "1,234 records"), in all and per kind. */
const outcome = (extra: Partial<SyncOutcome> = {}): SyncOutcome => ({
  outcome: 'done',
  mode: 'delta',
  startedAt: '2026-11-26T10:00:00.000Z',
  durationMs: 1500,
  readMs: 1000,
  records: 1,
  added: 1234,
  changed: 1,
  deleted: 0,
  duplicates: 0,
  duplicated: [],
  warnings: 1,
  problems: 0,
  requests: 1,
  notified: 0,
  message: '',
  problemRecords: new Map(),
  ...extra,
});

describe('the sync summary', () => {
  test('says one of each in the singular and groups thousands', () => {
    expect(describeSync(outcome(), false)).toBe(
      'delta sync: 1,234 added, 1 changed, 0 deleted, 1 warning, 0 problems; ' +
        '1 record read in 1 request, 1.5 s (1.0 s reading).',
    );
    const many = outcome({ records: 2_000_000, requests: 2000, warnings: 2 });
    expect(describeSync(many, false)).toBe(
      'delta sync: 1,234 added, 1 changed, 0 deleted, 2 warnings, 0 problems; ' +
        '2,000,000 records read in 2,000 requests, 1.5 s (1.0 s reading).',
    );
  });

  test('a dry run and a real one give the same figures, in all and per kind, as the import counted them', () => {
    const imported = {
      changes: { students: { added: 2, changed: 1, deleted: 0 }, marks: { added: 0, changed: 0, deleted: 1 } },
    };
    const figures = { added: 2, changed: 1, deleted: 1, imported: imported as never };
    const tail =
      ': 2 added, 1 changed, 1 deleted, 1 warning, 0 problems; 1 record read in 1 request, 1.5 s (1.0 s reading); ' +
      'by kind: students (2 added, 1 changed), marks (1 deleted).';
    expect(describeSync(outcome(figures), true)).toBe(`delta sync would apply${tail}`);
    expect(describeSync(outcome(figures), false)).toBe(`delta sync${tail}`);
  });

  test('records sent twice are counted apart from the warnings and listed, the first of them', () => {
    const twice = outcome({ duplicates: 23, duplicated: ['users "s3"', 'results "r2"'], warnings: 0 });
    expect(describeSync(twice, false)).toMatch(
      /0 warnings, 0 problems; .*; 23 records sent twice, taken once: users "s3", results "r2" and 21 more\.$/,
    );
  });

  test('nothing written says why', () => {
    const refused = outcome({
      outcome: 'nothing-written',
      message: "the provider's school has 1 problem",
      problems: 1,
    });
    expect(describeSync(refused, false)).toMatch(
      /^Nothing was written: the provider's school has 1 problem; 1 warning, 1 problem; /,
    );
  });
});
