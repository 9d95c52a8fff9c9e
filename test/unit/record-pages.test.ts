import { pageOf, type RecordScan } from '../../src/provider/record-pages';
import type { Json } from '../../src/roster/rest-records';

/**
 * A page is found in two passes over the collection without holding it: the count and the sort
 * keys first, then the page's records. The second pass of an unsorted page stops at its end.
 */
const COLUMNS = ['sourcedId', 'givenName', 'grade'];
const records: Json[] = Array.from({ length: 500 }, (_, index) => ({
  sourcedId: `u${String(index).padStart(3, '0')}`,
  givenName: ['Mona', 'Ali', 'Sara', 'Omar'][index % 4],
  grade: String((index * 7) % 13),
  ...(index === 3 ? { email: 'only@school.example' } : {}),
}));

function counted(): { scan: RecordScan; visits: () => number } {
  let visits = 0;
  const scan: RecordScan = async (visit) => {
    for (const record of records) {
      visits += 1;
      if (!(await visit(() => record))) break;
    }
    return COLUMNS;
  };
  return { scan, visits: () => visits };
}

const blank = (columns: readonly string[]) => Object.fromEntries(columns.map((column) => [column, '']));

async function page(query: string, scan: RecordScan = counted().scan): Promise<{ total: number; ids: string[] }> {
  const selected = await pageOf(scan, new URLSearchParams(query), blank);
  if ('codeMinor' in selected) throw new Error(selected.problem);
  const ids: string[] = [];
  await selected.page.records((record) => {
    ids.push(String(record.sourcedId));
    return true;
  });
  return { total: selected.page.total, ids };
}

test('a filtered, sorted page is the slice of the filtered records in a stable order', async () => {
  const { total, ids } = await page(
    "filter=givenName='Ali' OR givenName='Sara'&sort=grade&orderBy=desc&limit=30&offset=60",
  );
  const expected = records
    .filter((record) => record.givenName === 'Ali' || record.givenName === 'Sara')
    .map((record, position) => ({ record, position }))
    .sort((a, b) => Number(b.record.grade) - Number(a.record.grade) || a.position - b.position)
    .map(({ record }) => String(record.sourcedId));
  expect(total).toBe(250);
  expect(ids).toEqual(expected.slice(60, 90));
});

test('an unsorted page stops reading at its last record', async () => {
  const reads = counted();
  const { total, ids } = await page('limit=10&offset=20', reads.scan);
  expect(total).toBe(500);
  expect(ids).toEqual(records.slice(20, 30).map((record) => String(record.sourcedId)));
  // The first pass reads all 500 rows to count them; the second stops at the 30th.
  expect(reads.visits()).toBe(530);
});

test('a field one record has is known; one none has is refused by name', async () => {
  expect((await page("filter=email~'only'")).ids).toEqual(['u003']);
  const refused = await pageOf(counted().scan, new URLSearchParams('sort=nickname'), blank);
  expect(refused).toEqual({ codeMinor: 'invalid_sort_field', problem: 'sort: there is no field nickname' });
  // The field check comes before a bad orderBy, as the query's own order has it.
  const first = await pageOf(counted().scan, new URLSearchParams("filter=nickname='x'&orderBy=up"), blank);
  expect(first).toMatchObject({ codeMinor: 'invalid_filter_field' });
});

test('an offset past the end answers the count and no records', async () => {
  expect(await page('offset=900')).toEqual({ total: 500, ids: [] });
});
