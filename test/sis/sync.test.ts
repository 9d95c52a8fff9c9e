import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { readSisSettings } from '../../src/config/sis-settings';
import { exportSchool } from '../../src/roster/export-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import { loadOutboxKey, payloadSealer } from '../../src/lib/payload-sealer';
import { formatSyncProblem, formatSyncWarning } from '../../src/sis/problem-records';
import { describeSync } from '../../src/sis/sync-report';
import { type SyncOptions, syncSchool } from '../../src/sis/sync-school';
import type { Store } from '../../src/store/open-store';
import { lastSyncRun, syncedUntil, takeSyncLease } from '../../src/store/queries/sis-sync';
import { eventually } from '../support/eventually';
import { callJson } from '../support/json-calls';
import { BASE_MODIFIED, districtSchool, OneRosterProvider, schoolOf, sisSchool } from '../support/oneroster-provider';
import { smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { startTestService } from '../support/service';
import { openTestStore } from '../support/stores';

/**
 * The sync against the stand-in provider on loopback: the store it makes is the store the CSV
 * import of the same school makes, on both OneRoster versions; a delta brings a changed mark to
 * the wire; faults are waited out or fail the sync with the store as it was; one sync at a time.
 */

const folders: string[] = [];
function freshFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'sis-sync-test-'));
  folders.push(folder);
  return folder;
}
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const options = (extra: Partial<SyncOptions> = {}): SyncOptions & { waits: number[] } => {
  const waits: number[] = [];
  return {
    full: false,
    dryRun: false,
    skipInvalid: false,
    fromIdentifier: false,
    strict: false,
    defaultCountryCode: '966',
    wait: async (ms: number) => {
      waits.push(ms);
    },
    waits,
    ...extra,
  };
};

function settingsOf(provider: OneRosterProvider, version: '1.1' | '1.2', extra: Record<string, string> = {}) {
  return readSisSettings({ ...provider.settings(version), SIS_PAGE_SIZE: '3', SIS_TIMEOUT_MS: '2000', ...extra });
}

async function withProvider<T>(
  version: '1.1' | '1.2',
  work: (provider: OneRosterProvider) => Promise<T>,
  paging: 'link' | 'total' | 'both' = 'both',
): Promise<T> {
  const provider = new OneRosterProvider(schoolOf(sisSchool(), version), { paging });
  await provider.start();
  try {
    return await work(provider);
  } finally {
    await provider.close();
  }
}

/** A new store and a provider of the school, for one test. */
async function withFreshStore(
  version: '1.1' | '1.2',
  work: (store: Store, provider: OneRosterProvider) => Promise<void>,
): Promise<void> {
  const store = await openTestStore({ DATA_DIR: freshFolder() });
  try {
    await withProvider(version, (provider) => work(store, provider));
  } finally {
    await store.close();
  }
}

/** A promise a provider's answer waits on (a fault's `held`), and what lets it go. */
function heldAnswer(): { held: Promise<void>; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

describe.each(['1.1', '1.2'] as const)('a sync from a OneRoster %s provider', (version) => {
  let imported: Store;
  let importedFolder: string;
  beforeAll(async () => {
    importedFolder = freshFolder();
    imported = await openTestStore({ DATA_DIR: importedFolder });
    expect(problemsOf(await importBundle(imported, writeBundle(sisSchool())))).toEqual([]);
  });
  afterAll(() => imported.close());

  test('makes the store the CSV import of the same school makes, page by page', async () => {
    const store = await openTestStore({ DATA_DIR: freshFolder() });
    try {
      await withProvider(
        version,
        async (provider) => {
          const outcome = await syncSchool(store, settingsOf(provider, version), options());
          expect(outcome.message).toBe('');
          expect(outcome.outcome).toBe('done');
          expect(outcome.mode).toBe('bulk');
          expect(outcome.added).toBeGreaterThan(20);
          expect(await schoolRows(store)).toEqual(await schoolRows(imported));
          // Users come three a page: the paging followed every page, not the first alone.
          expect(provider.requests.filter((request) => request.includes('/users?')).length).toBe(3);
          if (version === '1.2') {
            expect(provider.scopesAsked).toEqual(['roster-core.readonly roster.readonly gradebook.readonly']);
          }
        },
        version === '1.1' ? 'link' : 'total',
      );
    } finally {
      await store.close();
    }
  });

  test('a record sent on two pages counts once', async () => {
    await withFreshStore(version, async (store, provider) => {
      provider.duplicateAcrossPages = true;
      // A record sent twice is a warning, which --strict makes a problem: nothing is written.
      const strict = await syncSchool(store, settingsOf(provider, version), options({ strict: true }));
      expect(strict.outcome).toBe('failed');
      expect(strict.message).toMatch(/sent \d+ records twice \(a warning; --strict makes warnings problems\)/);
      expect(await schoolRows(store)).toEqual(await schoolRows(await emptyStore()));
      const outcome = await syncSchool(store, settingsOf(provider, version), options());
      expect(outcome.outcome).toBe('done');
      expect(outcome.duplicates).toBeGreaterThan(5);
      // Counted apart from the import's warnings, and listed.
      expect(outcome.warnings).toBe(0);
      expect(outcome.duplicated.length).toBe(Math.min(outcome.duplicates, 20));
      expect(outcome.duplicated[0]).toMatch(/^\w+ "[\w-]+"$/);
      expect(describeSync(outcome, false)).toContain(`${outcome.duplicates} records sent twice, taken once: `);
      expect(await schoolRows(store)).toEqual(await schoolRows(imported));
    });
  });

  test('results a later page adds a column to are read again once whole, the column given back', async () => {
    await withFreshStore(version, async (store, provider) => {
      // Results come three a page: r4 is on the second, after the growing file's header was written.
      const r4 = provider.record('results', 'r4');
      provider.put('results', { ...r4, metadata: { ...(r4.metadata as object), teacherNote: 'handed in late' } });
      const outcome = await syncSchool(store, settingsOf(provider, version), options());
      expect(outcome.message).toBe('');
      expect(outcome.outcome).toBe('done');
      expect(await schoolRows(store)).toEqual(await schoolRows(imported));
      const exported = join(freshFolder(), 'bundle');
      await exportSchool(store, exported, SILENT_PROGRESS);
      const results = parse(readFileSync(join(exported, 'results.csv')), { columns: true }) as Record<string, string>[];
      expect(results.find((row) => row.sourcedId === 'r4')?.['metadata.teacherNote']).toBe('handed in late');
    });
  });

  test('a reading that fails while the import reads its results writes nothing', async () => {
    await withFreshStore(version, async (store, provider) => {
      const { held, release } = heldAnswer();
      // The second page of results waits, then fails, as does the try after it: the first page
      // was the import's to read meanwhile.
      provider.faults.push({ collection: 'results', offset: 3, held, status: 500, times: 1 });
      provider.faults.push({ collection: 'results', offset: 3, status: 500, times: 1 });
      const syncing = syncSchool(store, settingsOf(provider, version, { SIS_RETRIES: '1' }), options());
      const asked = async () =>
        provider.requests.some((line) => line.includes('/results?') && line.includes('offset=3'));
      expect(await eventually(asked, Boolean)).toBe(true);
      release();
      const failed = await syncing;
      expect(failed.outcome).toBe('failed');
      expect(failed.message).toMatch(/\/results: answered 500 after 2 tries/);
      expect(await schoolRows(store)).toEqual(await schoolRows(await emptyStore()));
      expect(await syncedUntil(store)).toBeUndefined();
    });
  });
});

describe('a provider serving a district of two schools', () => {
  test('is refused whole without SIS_SCHOOL, and with it gives the store the import of that school gives', async () => {
    const expected = await openTestStore({ DATA_DIR: freshFolder() });
    const store = await openTestStore({ DATA_DIR: freshFolder() });
    const rows = districtSchool();
    // A teacher of both schools belongs to both; their class at the other school is left out.
    const teacher = rows.users.find((row) => row.sourcedId === 't-2') as Record<string, string>;
    teacher.orgSourcedIds = 'sch-1,sch-2';
    rows.enrollments.push({
      ...rows.enrollments[0],
      sourcedId: 'e91',
      classSourcedId: 'math-9x',
      userSourcedId: 't-2',
      role: 'teacher',
      schoolSourcedId: 'sch-2',
    });
    const provider = new OneRosterProvider(schoolOf(rows, '1.1'));
    await provider.start();
    try {
      const chosen = await importBundle(expected, writeBundle(rows), { school: 'sch-1' });
      expect(problemsOf(chosen)).toEqual([]);
      expect(chosen.written).toBe(true);
      const refused = await syncSchool(store, settingsOf(provider, '1.1'), options());
      expect(refused.outcome).toBe('nothing-written');
      expect(refused.message).toBe(
        'the provider serves 2 schools: "sch-1" (مدرسة الأمل), "sch-2" (Second School); ' +
          'name one with SIS_SCHOOL or --school',
      );
      expect(describeSync(refused, false)).toMatch(
        /^Nothing was written: the provider serves 2 schools: .*; 0 warnings, 0 problems; /,
      );
      const outcome = await syncSchool(store, settingsOf(provider, '1.1', { SIS_SCHOOL: 'sch-1' }), options());
      expect(outcome.message).toBe('');
      expect(outcome.outcome).toBe('done');
      expect(await schoolRows(store)).toEqual(await schoolRows(expected));
      expect((await schoolRows(store)).teachers).toHaveLength(2);
      // A delta carries only what changed, no org: the teacher of both schools still belongs to
      // this one, and the other school's changed student stays out.
      const changedAt = new Date(Date.now() + 1000).toISOString();
      provider.put('users', { ...provider.record('users', 't-2'), familyName: 'Karimi', dateLastModified: changedAt });
      provider.put('users', {
        ...provider.record('users', 's9'),
        familyName: 'Elsewhere',
        dateLastModified: changedAt,
      });
      const delta = await syncSchool(store, settingsOf(provider, '1.1', { SIS_SCHOOL: 'sch-1' }), options());
      expect(delta.message).toBe('');
      expect(delta).toMatchObject({ outcome: 'done', mode: 'delta', problems: 0, changed: 1, added: 0 });
      const after = JSON.stringify(await schoolRows(store));
      expect(after).toContain('Karimi');
      expect(after).not.toContain('Elsewhere');
    } finally {
      await provider.close();
      await store.close();
      await expected.close();
    }
  });
});

describe('a store holding another school', () => {
  test('is not replaced by a sync, which says so', async () => {
    const store = await openTestStore({ DATA_DIR: freshFolder() });
    try {
      const other = sisSchool();
      for (const file of ['orgs', 'classes', 'courses', 'users', 'enrollments'] as const) {
        for (const row of other[file]) {
          for (const column of ['sourcedId', 'schoolSourcedId', 'orgSourcedId', 'orgSourcedIds']) {
            if (row[column] === 'sch-1') row[column] = 'sch-x';
          }
        }
      }
      expect(problemsOf(await importBundle(store, writeBundle(other)))).toEqual([]);
      const before = await schoolRows(store);
      await withProvider('1.1', async (provider) => {
        for (const dryRun of [true, false]) {
          const refused = await syncSchool(store, settingsOf(provider, '1.1'), options({ dryRun }));
          expect(refused.outcome).toBe('nothing-written');
          expect(refused.message).toMatch(/^the store holds another school, .*, which a sync does not replace/);
        }
      });
      expect(await schoolRows(store)).toEqual(before);
    } finally {
      await store.close();
    }
  });
});

describe("the import's warnings", () => {
  test('are counted, named by the provider record, recorded for /status, and problems under --strict', async () => {
    const store = await openTestStore({ DATA_DIR: freshFolder() });
    try {
      await withProvider('1.1', async (provider) => {
        provider.put('classes', { ...provider.record('classes', 'hr-7b'), grades: [] });
        const strict = await syncSchool(store, settingsOf(provider, '1.1'), options({ strict: true }));
        expect(strict).toMatchObject({ outcome: 'nothing-written', warnings: 0, problems: 1 });
        expect(formatSyncProblem(problemsOf(strict.imported as never)[0], strict.problemRecords)).toMatch(
          /^classes record "hr-7b" \(classes\.csv:\d+:\d+ of the sync's bundle\): grade-unknown: the class has no/,
        );
        expect(await schoolRows(store)).toEqual(await schoolRows(await emptyStore()));
        const dry = await syncSchool(store, settingsOf(provider, '1.1'), options({ dryRun: true }));
        expect(dry).toMatchObject({ outcome: 'done', warnings: 1, problems: 0 });
        const summary = describeSync(dry, true);
        expect(summary).toMatch(
          /^bulk sync would apply: \d+ added, 0 changed, 0 deleted, 1 warning, 0 problems; \d+ records /,
        );
        expect(summary).toMatch(/; by kind: schools \(1 added\), .*classes \(2 added\), /);
        expect(await schoolRows(store)).toEqual(await schoolRows(await emptyStore()));
        const outcome = await syncSchool(store, settingsOf(provider, '1.1'), options());
        expect(outcome).toMatchObject({ outcome: 'done', warnings: 1, problems: 0 });
        const [warning] = outcome.imported?.problems.warnings().warnings ?? [];
        expect(formatSyncWarning(warning, outcome.problemRecords)).toMatch(
          /^classes record "hr-7b" \(classes\.csv:\d+:\d+ of the sync's bundle\): warning grade-unknown: /,
        );
        expect(describeSync(outcome, false)).toMatch(
          /^bulk sync: \d+ added, 0 changed, 0 deleted, 1 warning, 0 problems; /,
        );
        expect((await lastSyncRun(store))?.warnings).toBe(1);
      });
    } finally {
      await store.close();
    }
  });
});

describe('a provider record the import refuses', () => {
  test('writes nothing and is named by its sourcedId; with --skip-invalid the rest is written', async () => {
    const store = await openTestStore({ DATA_DIR: freshFolder() });
    try {
      await withProvider('1.1', async (provider) => {
        provider.put('users', { ...provider.record('users', 's3'), sourcedId: 'x9', role: 'wizard' });
        const refused = await syncSchool(store, settingsOf(provider, '1.1'), options());
        expect(refused.outcome).toBe('nothing-written');
        expect(await schoolRows(store)).toEqual(await schoolRows(await emptyStore()));
        const problems = problemsOf(refused.imported as never);
        expect(problems).toHaveLength(1);
        expect(formatSyncProblem(problems[0], refused.problemRecords)).toMatch(
          /^users record "x9" \(users\.csv:10:\d+ of the sync's bundle\): unknown-value: /,
        );
        const written = await syncSchool(store, settingsOf(provider, '1.1'), options({ skipInvalid: true }));
        expect(written).toMatchObject({ outcome: 'rows-skipped', problems: 1 });
        expect((await schoolRows(store)).students).toHaveLength(3);
      });
    } finally {
      await store.close();
    }
  });
});

describe('a delta sync', () => {
  test('brings a changed mark and a deleted one to GetStudentsMarks2, asking only for what changed', async () => {
    const folder = freshFolder();
    const store = await openTestStore({ DATA_DIR: folder });
    await withProvider('1.2', async (provider) => {
      const settings = settingsOf(provider, '1.2');
      expect((await syncSchool(store, settings, options())).outcome).toBe('done');
      const first = await syncedUntil(store);
      expect(first).toBeDefined();
      const changedAt = new Date(Date.now() + 1000).toISOString();
      provider.put('results', { ...provider.record('results', 'r1'), score: 9.5, dateLastModified: changedAt });
      provider.put('results', {
        ...provider.record('results', 'r2'),
        status: 'tobedeleted',
        dateLastModified: changedAt,
      });
      provider.requests.length = 0;
      const outcome = await syncSchool(store, settings, options());
      expect(outcome).toMatchObject({ outcome: 'done', mode: 'delta', records: 2, changed: 1, deleted: 1, added: 0 });
      const reads = provider.requests.filter((request) => request.startsWith('GET '));
      expect(reads.length).toBeGreaterThanOrEqual(10);
      expect(reads.every((request) => request.includes('filter=dateLastModified'))).toBe(true);
      expect(await syncedUntil(store)).not.toBe(first);
    });
    await store.close();
    const service = await startTestService({ DATA_DIR: folder, DEMO_DATA: 'off' });
    try {
      const student = (await idsOf(folder, 'students', 's1')) as number;
      const subject = await subjectOfLineItem(folder, 'li1');
      const marks = await callJson(service.url, '/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', {
        StudnetID: String(student),
        SubjectID: String(subject),
      });
      expect(JSON.stringify(marks.body.d)).toContain('9.5');
    } finally {
      await service.close();
    }
  });
});

describe('mark notifications of a sync', () => {
  test('are queued for the results a delta brings, each result once', async () => {
    const folder = freshFolder();
    const store = await openTestStore({ DATA_DIR: folder });
    const notify = { sealer: payloadSealer(loadOutboxKey(undefined, folder)), perDevicePerMinute: 100 };
    const pushes = async () =>
      (await store.db.selectFrom('outbox_messages').select('idempotency_key').execute()).map(
        (row) => row.idempotency_key,
      );
    try {
      await withProvider('1.1', async (provider) => {
        const settings = settingsOf(provider, '1.1');
        // The first sync brings the whole gradebook: no parent is told of a year of marks at once.
        expect((await syncSchool(store, settings, options({ notify }))).notified).toBe(0);
        // The guardians' devices are the service's own file, not the SIS's.
        const school = smallSchool();
        const devices = writeBundle({
          manifest: [{ propertyName: 'manifest.version', value: '1.0' }],
          devices: school.devices.map((row) => ({ ...row, status: 'active', dateLastModified: BASE_MODIFIED })),
        });
        expect(problemsOf(await importBundle(store, devices, { mode: 'delta' }))).toEqual([]);
        const changedAt = new Date(Date.now() + 1000).toISOString();
        provider.put('results', { ...provider.record('results', 'r1'), score: 9.5, dateLastModified: changedAt });
        const delta = await syncSchool(store, settings, options({ notify }));
        expect(delta.notified).toBe(1);
        expect(await pushes()).toHaveLength(1);
        // The same result sent again (a newer time, the same score) is not notified twice.
        const later = new Date(Date.now() + 2000).toISOString();
        provider.put('results', { ...provider.record('results', 'r1'), dateLastModified: later });
        expect((await syncSchool(store, settings, options({ notify }))).notified).toBe(0);
        expect(await pushes()).toHaveLength(1);
      });
    } finally {
      await store.close();
    }
  });
});

async function idsOf(folder: string, kind: string, sourcedId: string): Promise<number | undefined> {
  const store = await openTestStore({ DATA_DIR: folder });
  try {
    const row = await store.db
      .selectFrom('roster_ids')
      .select('id')
      .where('kind', '=', kind)
      .where('sourced_id', '=', sourcedId)
      .executeTakeFirst();
    return row?.id;
  } finally {
    await store.close();
  }
}

async function subjectOfLineItem(folder: string, sourcedId: string): Promise<number> {
  const assessment = (await idsOf(folder, 'assessments', sourcedId)) as number;
  const store = await openTestStore({ DATA_DIR: folder });
  try {
    const row = await store.db
      .selectFrom('assessments')
      .select('subject_id')
      .where('id', '=', assessment)
      .executeTakeFirstOrThrow();
    return row.subject_id;
  } finally {
    await store.close();
  }
}

describe('faults', () => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore({ DATA_DIR: freshFolder() });
  });
  afterEach(() => store.close());

  test.each([429, 503])('%s waits for Retry-After, then goes on', async (status) => {
    await withProvider('1.1', async (provider) => {
      provider.faults.push({ collection: 'users', offset: 3, status, retryAfter: '7', times: 2 });
      const run = options();
      const outcome = await syncSchool(store, settingsOf(provider, '1.1'), run);
      expect(outcome.outcome).toBe('done');
      expect(run.waits.filter((ms) => ms >= 7000)).toHaveLength(2);
    });
  });

  test('the reading runs on a thread of its own, at a lower priority than the import', async () => {
    await withProvider('1.2', async (provider) => {
      const { held, release } = heldAnswer();
      provider.faults.push({ collection: 'results', held, times: 1 });
      const before = threadNiceness();
      const syncing = syncSchool(store, settingsOf(provider, '1.2'), options());
      const asked = async () => provider.requests.some((line) => line.includes('/results?'));
      expect(await eventually(asked, Boolean)).toBe(true);
      // A thread of this process that was not there before, waiting on the provider, niced by 10.
      const during = threadNiceness();
      const added = [...during].filter(([thread]) => !before.has(thread)).map(([, nice]) => nice);
      release();
      expect((await syncing).outcome).toBe('done');
      expect(added).toContain(10);
      expect(during.get(String(process.pid))).toBe(before.get(String(process.pid)));
    });
  });

  test('a Retry-After past the bound fails the sync at once', async () => {
    await withProvider('1.1', async (provider) => {
      provider.faults.push({ collection: 'classes', status: 429, retryAfter: '86400', times: 1 });
      const outcome = await syncSchool(store, settingsOf(provider, '1.1'), options());
      expect(outcome.outcome).toBe('failed');
      expect(outcome.message).toMatch(/classes: answered 429, asking to wait 86400 s/);
    });
  });

  test('a request that times out is tried again', async () => {
    await withProvider('1.2', async (provider) => {
      provider.faults.push({ collection: 'lineItems', hang: true, times: 1 });
      // Long enough for the token and every other page on a busy machine; the hanging page waits it out.
      const outcome = await syncSchool(store, settingsOf(provider, '1.2', { SIS_TIMEOUT_MS: '1500' }), options());
      expect(outcome.outcome).toBe('done');
    });
  });

  test('a token that expires mid-sync is fetched again, once for the pages in flight', async () => {
    await withProvider('1.2', async (provider) => {
      // Users come three a page, the pages at offsets 3 and 6 asked for together: both meet the ended token.
      provider.faults.push({ collection: 'users', offset: 3, expireTokens: true, times: 1 });
      const outcome = await syncSchool(store, settingsOf(provider, '1.2'), options());
      expect(outcome.outcome).toBe('done');
      expect(provider.tokensIssued).toBe(2);
    });
  });

  test('a failure at the last page changes nothing, and the next sync starts from the last good one', async () => {
    await withProvider('1.1', async (provider) => {
      const settings = settingsOf(provider, '1.1', { SIS_RETRIES: '2' });
      expect((await syncSchool(store, settings, options())).outcome).toBe('done');
      const before = await schoolRows(store);
      const since = await syncedUntil(store);
      const changedAt = new Date(Date.now() + 1000).toISOString();
      provider.put('users', { ...provider.record('users', 's2'), givenName: 'Sarah', dateLastModified: changedAt });
      provider.faults.push({ collection: 'results', status: 500, times: 3 });
      const failed = await syncSchool(store, settings, options());
      expect(failed.outcome).toBe('failed');
      expect(failed.message).toMatch(/\/results: answered 500 after 3 tries/);
      expect(await schoolRows(store)).toEqual(before);
      expect(await syncedUntil(store)).toBe(since);
      const next = await syncSchool(store, settings, options());
      expect(next).toMatchObject({ outcome: 'done', mode: 'delta', changed: 1 });
    });
  });

  test('a provider tried once (SIS_RETRIES=0) says "after 1 try"', async () => {
    await withProvider('1.1', async (provider) => {
      provider.faults.push({ collection: 'orgs', status: 500, times: 1 });
      const failed = await syncSchool(store, settingsOf(provider, '1.1', { SIS_RETRIES: '0' }), options());
      expect(failed.outcome).toBe('failed');
      expect(failed.message).toMatch(/\/orgs: answered 500 after 1 try$/);
    });
  });

  test('an answer larger than the bound is refused', async () => {
    await withProvider('1.1', async (provider) => {
      const settings = settingsOf(provider, '1.1', { SIS_PAGE_SIZE: '1000', SIS_MAX_RESPONSE_BYTES: '1024' });
      const outcome = await syncSchool(store, settings, options());
      expect(outcome.outcome).toBe('failed');
      expect(outcome.message).toMatch(/answer refused, the response is larger than 1024 bytes/);
      expect(await schoolRows(store)).toEqual(await schoolRows(await emptyStore()));
    });
  });

  test('a wrong 1.1 signature is refused, and the secret is in no message', async () => {
    await withProvider('1.1', async (provider) => {
      const wrong = 'not-the-provider-secret';
      const settings = settingsOf(provider, '1.1', { SIS_CLIENT_SECRET: wrong });
      const outcome = await syncSchool(store, settings, options());
      expect(outcome.outcome).toBe('failed');
      expect(outcome.message).toMatch(/orgs: answered 401 \(credentials refused\)/);
      expect(provider.refusals).toBe(1);
      expect(JSON.stringify({ outcome, settings })).not.toContain(wrong);
    });
  });

  test('a 1.2 client the token endpoint refuses fails without the secret in the message', async () => {
    await withProvider('1.2', async (provider) => {
      const wrong = 'not-the-provider-secret';
      const outcome = await syncSchool(store, settingsOf(provider, '1.2', { SIS_CLIENT_SECRET: wrong }), options());
      expect(outcome.outcome).toBe('failed');
      expect(outcome.message).toMatch(/refused the client "school-sync" \(401 invalid_client\)/);
      expect(outcome.message).not.toContain(wrong);
    });
  });
});

let empty: Store | undefined;
async function emptyStore(): Promise<Store> {
  empty ??= await openTestStore({ DATA_DIR: freshFolder() });
  return empty;
}
afterAll(() => empty?.close());

describe('two nodes', () => {
  test('never sync at once: the second finds the lease taken and asks the provider nothing', async () => {
    const folder = freshFolder();
    const nodeA = await openTestStore({ DATA_DIR: folder });
    const nodeB = await openTestStore({ DATA_DIR: folder });
    try {
      await withProvider('1.1', async (provider) => {
        const settings = settingsOf(provider, '1.1');
        const [a, b] = await Promise.all([
          syncSchool(nodeA, settings, options()),
          syncSchool(nodeB, settings, options()),
        ]);
        expect([a.outcome, b.outcome].sort()).toEqual(['busy', 'done']);
        // A lease held by a node that is still syncing (here: taken by hand) keeps the other out.
        expect(await takeSyncLease(nodeA, 'node-a', new Date(), 60_000)).toBe(true);
        const asked = provider.requests.length;
        expect((await syncSchool(nodeB, settings, options())).outcome).toBe('busy');
        expect(provider.requests.length).toBe(asked);
        // A node that died mid-sync holds the lease until it runs out, then another syncs.
        const later = () => new Date(Date.now() + 61_000);
        expect((await syncSchool(nodeB, settings, options({ now: later }))).outcome).toBe('done');
      });
    } finally {
      await nodeA.close();
      await nodeB.close();
    }
  });
});

describe('the provider URL', () => {
  const base = { SIS_CLIENT_ID: 'id', SIS_CLIENT_SECRET: 'secret' };
  test('is https unless on loopback or SIS_ALLOW_HTTP=on', () => {
    expect(() => readSisSettings({ ...base, SIS_URL: 'http://sis.example.org/ims/oneroster/v1p1' })).toThrow(
      /must be an https URL/,
    );
    expect(readSisSettings({ ...base, SIS_URL: 'http://[::1]:8000/ims/oneroster/v1p1' }).version).toBe('1.1');
    const allowed = readSisSettings({ ...base, SIS_URL: 'http://sis.lan/ims/oneroster/v1p1', SIS_ALLOW_HTTP: 'on' });
    expect(allowed.url).toBe('http://sis.lan/ims/oneroster/v1p1');
  });

  test('refuses a schedule without a provider, and a 1.2 provider without its token endpoint', () => {
    expect(() => readSisSettings({ SIS_SYNC_INTERVAL: '15m' })).toThrow(/SIS_SYNC_INTERVAL needs SIS_URL/);
    expect(() => readSisSettings({ ...base, SIS_URL: 'https://sis.example.org/ims/oneroster/rostering/v1p2' })).toThrow(
      /needs SIS_TOKEN_URL/,
    );
    const url = { ...base, SIS_URL: 'https://sis.example.org/ims/oneroster/v1p1' };
    expect(() => readSisSettings({ ...url, SIS_SYNC_INTERVAL: '10 minutes' })).toThrow(/a duration such as 15m/);
    expect(() => readSisSettings({ ...url, SIS_SYNC_INTERVAL: '5s' })).toThrow(/between 1m and 7 days/);
    expect(readSisSettings({ ...url, SIS_SYNC_INTERVAL: '15m' }).intervalMs).toBe(900_000);
    expect(() => readSisSettings({ ...url, SIS_CLIENT_SECRET: '' })).toThrow(/needs SIS_CLIENT_SECRET/);
  });

  test('gives the version and the gradebook sibling of a 1.2 base', () => {
    const settings = readSisSettings({
      ...base,
      SIS_URL: 'https://sis.example.org/ims/oneroster/rostering/v1p2/',
      SIS_TOKEN_URL: 'https://sis.example.org/oauth/token',
    });
    expect(settings).toMatchObject({
      version: '1.2',
      gradebookUrl: 'https://sis.example.org/ims/oneroster/gradebook/v1p2',
    });
    expect(JSON.stringify(settings)).not.toContain('"secret"');
  });
});

/** Each thread of this process by its id, with its nice value (field 19 of /proc/self/task/ID/stat). */
function threadNiceness(): Map<string, number> {
  const threads = new Map<string, number>();
  for (const thread of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
    // The fields after the name (which may hold spaces), from field 3 on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    threads.set(thread, Number(fields[19 - 3]));
  }
  return threads;
}
