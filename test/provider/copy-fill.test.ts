import { SchoolCopy } from '../../src/provider/school-copy';
import type { RowVisit, StoreReading } from '../../src/provider/school-reading';
import type { UserPages } from '../../src/roster/user-pages';

/**
 * The copy's background read of users.csv, started once a plain page was read from the store: one
 * per file and version, on a reading of its own that it closes, kept only when it read the whole
 * file at a version that did not move, and stopped by close() (the school closing). The HTTP side
 * (later pages answered from the copy, byte for byte) is in paged-reads.test.ts.
 */
const COLUMNS = ['sourcedId', 'givenName'];
const ROWS = [
  ['u1', 'Ada'],
  ['u2', 'Ben'],
  ['u3', 'Cy'],
];
/** A store of one users.csv whose scans and pages may be held before each row, and what was opened and closed. */
function fakeStore(rows: readonly string[][] = ROWS) {
  const state = {
    version: 1,
    opened: 0,
    closed: 0,
    failOpen: false,
    /** Resolved to let a held scan go on; undefined lets every scan run through. */
    hold: undefined as Promise<void> | undefined,
  };
  const PAGES: UserPages = {
    columns: async () => COLUMNS,
    total: () => rows.length,
    async rows(_role, start, count, visit) {
      for (const row of rows.slice(start, start + count)) {
        await state.hold;
        if (!(await visit(row))) break;
      }
    },
  };
  const open = async (): Promise<StoreReading> => {
    if (state.failOpen) throw new Error('the store is unreachable');
    state.opened += 1;
    return {
      whole: async () => new Map([['users', { columns: COLUMNS, rows }]]),
      async scan(_name: string, visit: RowVisit) {
        for (const row of rows) {
          await state.hold;
          if (!(await visit(COLUMNS, row))) break;
        }
        return COLUMNS;
      },
      userPages: async () => PAGES,
      close: async () => {
        state.closed += 1;
      },
    };
  };
  const copy = new SchoolCopy(async () => state.version);
  return { state, copy, PAGES, reading: () => copy.reading(open) };
}

/** A plain page read as a request reads it: the pages asked for, then the reading closed. */
async function pageRead(reading: Awaited<ReturnType<ReturnType<typeof fakeStore>['reading']>>) {
  const pages = await reading.userPages?.();
  await reading.close();
  return pages;
}

/** A promise a background read waits on before each row, and the call that lets it go on. */
function gate(): { readonly held: Promise<void>; readonly open: () => void } {
  let open: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { held, open };
}

/** Lets the background read take its turns (it awaits the version, the store and each row). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

test('a page from the store starts one background read; the pages after it are answered from the copy', async () => {
  const { state, copy, PAGES, reading } = fakeStore();
  const { held, open: go } = gate();
  state.hold = held;
  expect(await pageRead(await reading())).toBe(PAGES);
  await settle();
  // While the first background read is held, another page is read from the store and starts none.
  expect(await pageRead(await reading())).toBe(PAGES);
  expect(state.opened).toBe(3);
  go();
  await settle();
  expect(state.closed).toBe(3);
  const later = await reading();
  expect(await later.userPages?.()).toBeUndefined();
  const seen: string[] = [];
  await later.scan('users', (_columns, values) => {
    seen.push(values[0]);
    return true;
  });
  await later.close();
  expect(seen).toEqual(['u1', 'u2', 'u3']);
  expect(state.opened).toBe(3);
  await copy.close();
});

test('a background read that fails is not kept, and the next page starts another', async () => {
  const { state, copy, PAGES, reading } = fakeStore();
  const first = await reading();
  await first.userPages?.();
  state.failOpen = true;
  await first.close();
  await settle();
  state.failOpen = false;
  expect(await pageRead(await reading())).toBe(PAGES);
  await settle();
  // The page's own reading, and the read behind it that filled the copy.
  expect(state.opened).toBe(3);
  expect(await (await reading()).userPages?.()).toBeUndefined();
  await copy.close();
});

test("no background read starts once the version has moved from the page's", async () => {
  const { state, copy, PAGES, reading } = fakeStore();
  const page = await reading();
  await page.userPages?.();
  state.version = 2;
  await page.close();
  await settle();
  expect(state.opened).toBe(1);
  expect(await (await reading()).userPages?.()).toBe(PAGES);
  await copy.close();
});

test('closing the copy stops a background read under way, closes its reading and keeps nothing', async () => {
  const { state, copy, PAGES, reading } = fakeStore();
  const { held, open: release } = gate();
  state.hold = held;
  expect(await pageRead(await reading())).toBe(PAGES);
  await settle();
  expect(state.opened).toBe(2);
  const closing = copy.close();
  release();
  await closing;
  expect(state.closed).toBe(2);
  // Nothing was kept, and no page starts another read.
  state.hold = undefined;
  expect(await pageRead(await reading())).toBe(PAGES);
  await settle();
  expect(state.opened).toBe(3);
});

/** A request reading users.csv whole (a filter, a sort): the rows it scans, then its reading closed. */
async function wholeRead(reading: Awaited<ReturnType<ReturnType<typeof fakeStore>['reading']>>) {
  const seen: string[] = [];
  await reading.scan('users', (_columns, values) => {
    seen.push(values[0]);
    return true;
  });
  await reading.close();
  return seen;
}

test('requests reading the whole file while the copy lacks it share one read into the copy, and keep it', async () => {
  const { state, copy, reading } = fakeStore();
  const { held, open: go } = gate();
  state.hold = held;
  const first = wholeRead(await reading());
  const second = wholeRead(await reading());
  await settle();
  // Neither request opened a reading of its own: the one read into the copy serves both.
  expect(state.opened).toBe(1);
  go();
  expect(await first).toEqual(['u1', 'u2', 'u3']);
  expect(await second).toEqual(['u1', 'u2', 'u3']);
  expect(await wholeRead(await reading())).toEqual(['u1', 'u2', 'u3']);
  expect(state.opened).toBe(1);
  expect(state.closed).toBe(1);
  await copy.close();
});

test('a read into the copy gives the thread back between slices of rows', async () => {
  const many = Array.from({ length: 2000 }, (_, index) => [`u${index}`, 'Name']);
  const { copy, reading } = fakeStore(many);
  // Turns of the event loop taken while the file is read: none if the read held the thread throughout.
  let turns = 0;
  let going = true;
  const count = (): void => {
    if (!going) return;
    turns += 1;
    setImmediate(count);
  };
  setImmediate(count);
  const seen = await wholeRead(await reading());
  going = false;
  expect(seen).toHaveLength(2000);
  expect(turns).toBeGreaterThanOrEqual(2000 / 250 - 1);
  await copy.close();
});
