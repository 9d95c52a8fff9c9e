import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchoolEntryError, schoolEntry } from '../../src/district/school-entry';
import { readSchools, schoolsFolder, writeSchools } from '../../src/district/school-list';

/** The checks of a school's entry, from the command line or read back from the deployment's list. */
describe('a school entry', () => {
  it.each([
    ['a sourcedId climbing out of DATA_DIR', { sourcedId: '..', path: '/a' }],
    ['a sourcedId with a slash', { sourcedId: 'a/b', path: '/a' }],
    ['a sourcedId of a hidden folder', { sourcedId: '.a', path: '/a' }],
    ['a sourcedId over 64 characters', { sourcedId: 'a'.repeat(65), path: '/a' }],
    ['a path of two segments', { sourcedId: 'a', path: '/a/b' }],
    ['an endpoint as a path', { sourcedId: 'a', path: '/Students.asmx' }],
    ['a path in capitals', { sourcedId: 'a', path: '/Alpha' }],
    ['a path over 40 characters', { sourcedId: 'a', path: `/${'a'.repeat(41)}` }],
    ["the operator's /status", { sourcedId: 'a', path: '/status' }],
    ["the OneRoster provider's /ims", { sourcedId: 'a', path: '/ims' }],
    ['a host with a path', { sourcedId: 'a', path: '/a', host: 'a.org/x' }],
    ['a name with a line break', { sourcedId: 'a', path: '/a', name: 'a\nb' }],
    ['a name over 200 characters', { sourcedId: 'a', path: '/a', name: 'n'.repeat(201) }],
    ['a sourcedId that is not text', { sourcedId: 7, path: '/a' }],
  ])('refuses %s', (_what, parts) => {
    expect(() => schoolEntry(parts)).toThrow(SchoolEntryError);
  });

  it('keeps a valid entry as given', () => {
    const entry = { sourcedId: 'org-1.2_x', path: '/north-7', host: 'north.example.org', name: 'North School' };
    expect(schoolEntry(entry)).toEqual(entry);
  });

  describe('the list of schools', () => {
    let dataDirectory: string;
    beforeEach(() => {
      dataDirectory = mkdtempSync(join(tmpdir(), 'school-list-'));
    });
    afterEach(() => rmSync(dataDirectory, { recursive: true, force: true }));

    it('reads back what it wrote, and none when there is no list', () => {
      expect(readSchools(dataDirectory)).toEqual([]);
      writeSchools(dataDirectory, [{ sourcedId: 'a', path: '/a' }]);
      expect(readSchools(dataDirectory)).toEqual([{ sourcedId: 'a', path: '/a' }]);
    });

    it.each([
      ['not JSON', '{'],
      ['without its list', '{}'],
      ['an entry out of bounds', '{"schools":[{"sourcedId":"../x","path":"/a"}]}'],
      ['two schools at one path', '{"schools":[{"sourcedId":"a","path":"/a"},{"sourcedId":"b","path":"/a"}]}'],
    ])('refuses a list edited by hand into %s', (_what, text) => {
      mkdirSync(schoolsFolder(dataDirectory), { recursive: true });
      writeFileSync(join(schoolsFolder(dataDirectory), 'schools.json'), text);
      expect(() => readSchools(dataDirectory)).toThrow(SchoolEntryError);
    });
  });
});
