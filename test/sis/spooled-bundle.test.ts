import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { SpooledBundle } from '../../src/sis/spooled-bundle';

/** The sync's bundle on disk: CSV the import reads back as written, records sent twice written once, memory bounded. */
const row = (sourcedId: string, extra: Record<string, string> = {}) => ({
  sourcedId,
  status: 'active',
  dateLastModified: '2026-09-01T00:00:00.000Z',
  ...extra,
});

test('writes the header with the columns records added, values quoted where they must be, and a manifest', async () => {
  const spool = await SpooledBundle.create('delta', '1.2');
  try {
    await spool.add('categories', [row('c1', { title: 'Quiz, "short"\nform' })]);
    await spool.add('categories', [row('c2', { title: 'Exam', 'metadata.nameEn': 'Exam' })]);
    await spool.add('results', [row('r1', { score: '7' })]);
    const folder = await spool.finish();
    const rows = parse(readFileSync(join(folder, 'categories.csv')), { columns: true, relax_column_count: true });
    expect(rows).toEqual([
      expect.objectContaining({ sourcedId: 'c1', title: 'Quiz, "short"\nform' }),
      expect.objectContaining({ sourcedId: 'c2', title: 'Exam', 'metadata.nameEn': 'Exam' }),
    ]);
    const manifest = readFileSync(join(folder, 'manifest.csv'), 'utf8');
    expect(manifest).toContain('oneroster.version,1.2');
    expect(manifest).toContain('file.results,delta');
    const results = readFileSync(join(folder, 'results.csv'), 'utf8').split('\n');
    expect(results[0]).toContain('lineItemSourcedId');
    expect(parse(results.join('\n'), { columns: true })).toEqual([
      expect.objectContaining({ sourcedId: 'r1', score: '7' }),
    ]);
    expect(readFileSync(join(folder, 'lineItems.csv'), 'utf8').split('\n')).toEqual([
      expect.stringContaining('sourcedId'),
      '',
    ]);
  } finally {
    await spool.remove();
  }
});

test('a record sent twice is written once; past the bound, within the last pages', async () => {
  const spool = await SpooledBundle.create('bulk', '1.1', { exactIds: 4 });
  try {
    await spool.add('results', [row('r1'), row('r2'), row('r3')]);
    await spool.add('results', [row('r3'), row('r4')]);
    expect(spool.duplicates).toBe(1);
    // Four ids remembered: from here on, those of the last eight pages at least, sixteen at most.
    for (let page = 5; page < 30; page += 1) await spool.add('results', [row(`r${page}`)]);
    await spool.add('results', [row('r22'), row('r29'), row('r6')]);
    expect(spool.duplicates).toBe(3);
    expect(spool.count('results').rows).toBe(30);
  } finally {
    await spool.remove();
  }
});
