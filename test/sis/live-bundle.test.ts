import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ColumnsGrew, LiveBundle, ReadingFailed } from '../../src/sis/live-bundle';

/** The sync's bundle as the import reads it while the reading thread still writes it. */
let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'live-bundle-test-'));
  writeFileSync(join(folder, 'users.csv'), '');
  writeFileSync(join(folder, 'results.csv'), '');
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const bundleIn = (where: string) => new LiveBundle(where, ['manifest.csv', 'users.csv', 'results.csv'], 'results.csv');

/** Everything the stream gives until it ends, or the error it fails with. */
async function drained(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** Whether a promise has settled by the time the event loop has turned a few times. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

test('the growing file is read as far as it is written, and ends only when sealed', async () => {
  const bundle = bundleIn(folder);
  const path = join(folder, 'results.csv');
  const reading = drained(await bundle.open('results.csv'));
  appendFileSync(path, 'sourcedId,score\nr1,7\n');
  bundle.grown('results.csv', 21, false);
  appendFileSync(path, 'r2,8\n');
  bundle.grown('results.csv', 26, false);
  // Whole on disk, but the reading as a whole is not yet accepted: the file does not end.
  bundle.whole('results.csv', 26);
  expect(await settled(reading)).toBe(false);
  bundle.seal();
  expect(await reading).toBe('sourcedId,score\nr1,7\nr2,8\n');
});

test('bytes written but not yet counted are not read', async () => {
  const bundle = bundleIn(folder);
  appendFileSync(join(folder, 'results.csv'), 'sourcedId\nr1\nr2-half');
  bundle.grown('results.csv', 13, false);
  const reading = drained(await bundle.open('results.csv'));
  bundle.seal();
  expect(await reading).toBe('sourcedId\nr1\n');
});

test('another file opens once it is whole, as it is then', async () => {
  const bundle = bundleIn(folder);
  const opening = bundle.open('Users.csv');
  appendFileSync(join(folder, 'users.csv'), 'sourcedId\nu1\n');
  bundle.grown('users.csv', 13, false);
  expect(await settled(opening)).toBe(false);
  bundle.whole('users.csv', 13);
  expect(await drained(await opening)).toBe('sourcedId\nu1\n');
  expect(bundle.find('USERS.CSV')).toBe('users.csv');
  expect(bundle.find('roles.csv')).toBeUndefined();
});

test('a failed reading fails the files still awaited, the growing one included', async () => {
  const bundle = bundleIn(folder);
  const opening = bundle.open('users.csv');
  const reading = drained(await bundle.open('results.csv'));
  bundle.fail(new Error('/results: answered 500 after 2 tries'));
  await expect(opening).rejects.toBeInstanceOf(ReadingFailed);
  await expect(reading).rejects.toThrow('the reading failed: /results: answered 500 after 2 tries');
});

test('records that add a column after the growing file header fail its reader, to be read again whole', async () => {
  const bundle = bundleIn(folder);
  const reading = drained(await bundle.open('results.csv'));
  appendFileSync(join(folder, 'results.csv'), 'sourcedId\nr1\n');
  bundle.grown('results.csv', 13, true);
  await expect(reading).rejects.toBeInstanceOf(ColumnsGrew);
});

test('closing the bundle ends a reader still waiting', async () => {
  const bundle = bundleIn(folder);
  const stream = await bundle.open('results.csv');
  const reading = drained(stream).catch(() => 'closed');
  await bundle.close();
  expect(stream.destroyed).toBe(true);
  expect(await reading).toBe('closed');
});
