import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../../src/contract/catalog';
import { WSDL_DIRECTORY } from '../../src/contract/wsdl-directory';
import { SPEC_OPERATIONS } from '../support/spec-table';

describe('the catalog read from wsdl/', () => {
  test('holds the 18 operations of the spec on its 16 paths, parameters in order, spelled exactly', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    expect(catalog.operations).toHaveLength(18);
    expect(catalog.endpoints).toHaveLength(16);
    const actual = catalog.endpoints.flatMap((endpoint) =>
      endpoint.operations.map((operation) => [
        endpoint.path,
        operation.name,
        operation.parameters.map((parameter) => parameter.name),
      ]),
    );
    const expected = SPEC_OPERATIONS.map(({ endpoint, operation, parameters }) => [endpoint, operation, parameters]);
    expect(new Set(actual.map((row) => JSON.stringify(row)))).toEqual(
      new Set(expected.map((row) => JSON.stringify(row))),
    );
  });

  test('keeps the order of operations that share an endpoint', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    expect(
      catalog.endpointByPath('/GetStudentsInformation.asmx')?.operations.map((operation) => operation.name),
    ).toEqual(['GetStudentInfoByRecId', 'GetStudentInfoById']);
    expect(catalog.endpointByPath('/NotificationNotes.asmx')?.operations.map((operation) => operation.name)).toEqual([
      'SendMarkNotes',
      'GetNameAbsenceType',
    ]);
  });

  test('types studentId of GenerateReport as int and every other parameter as string', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    const typed = catalog.operations.flatMap((operation) =>
      operation.parameters.map((parameter) => `${operation.name}.${parameter.name}:${parameter.type}`),
    );
    expect(typed.filter((entry) => !entry.endsWith(':string'))).toEqual(['GenerateReport.studentId:int']);
  });

  test('documented: HelloWorld has a string result and every other operation an empty response', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    const withResult = catalog.operations.filter((operation) => operation.results.documented);
    expect(withResult.map((operation) => [operation.name, operation.results.documented])).toEqual([
      ['HelloWorld', { name: 'HelloWorldResult', type: { kind: 'primitive', name: 'string' }, optional: true }],
    ]);
  });

  test('paths are case-sensitive', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    expect(catalog.endpointByPath('/Scheduals.asmx')).toBeDefined();
    expect(catalog.endpointByPath('/scheduals.asmx')).toBeUndefined();
  });
});

describe('results and fields of value types', () => {
  test('the typed SendMarkNotes result, an int, is required, so .NET proxies return it', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    const sendMarkNotes = catalog.operations.find((operation) => operation.name === 'SendMarkNotes');
    expect(sendMarkNotes?.results.typed).toEqual({
      name: 'SendMarkNotesResult',
      type: { kind: 'primitive', name: 'int' },
      optional: false,
    });
  });

  test.each([
    [
      'a result',
      'name="SendMarkNotesResult" type="s:int"',
      'NotificationNotes',
      'SendMarkNotes result: SendMarkNotesResult',
    ],
    ['a field', 'name="NoteTypeId" type="s:int"', 'GetNoteType', 'GetStudentsNoteType result NoteType: NoteTypeId'],
  ])('%s of a value type declared minOccurs="0" is refused at start', async (_name, declaration, file, where) => {
    const directory = mkdtempSync(join(tmpdir(), 'school-wsdl-'));
    try {
      cpSync(WSDL_DIRECTORY, directory, { recursive: true });
      const path = join(directory, 'typed', `${file}.wsdl`);
      const text = readFileSync(path, 'utf8');
      expect(text).toContain(`minOccurs="1" maxOccurs="1" ${declaration}`);
      writeFileSync(
        path,
        text.replace(`minOccurs="1" maxOccurs="1" ${declaration}`, `minOccurs="0" maxOccurs="1" ${declaration}`),
      );
      await expect(loadCatalog(directory)).rejects.toThrow(
        `${file}.wsdl ${where} is of a value type (int) and must be minOccurs="1"`,
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('an operation name on two endpoints', () => {
  /**
   * wsdl/ with one more endpoint, OtherInformation, a copy of GetStudentsInformation whose
   * GetStudentInfoById takes its parameter under another name when `renameParameter` is set.
   */
  function wsdlWithCopiedEndpoint(renameParameter: boolean): string {
    const directory = mkdtempSync(join(tmpdir(), 'school-wsdl-'));
    cpSync(WSDL_DIRECTORY, directory, { recursive: true });
    for (const profile of ['', 'typed']) {
      const original = readFileSync(join(directory, profile, 'GetStudentsInformation.wsdl'), 'utf8');
      let copy = original.replaceAll('GetStudentsInformation', 'OtherInformation');
      if (renameParameter) copy = copy.replaceAll('name="StudentId" type="s:string"', 'name="Id" type="s:string"');
      writeFileSync(join(directory, profile, 'OtherInformation.wsdl'), copy);
    }
    return directory;
  }

  test('is refused at start when the two declare it with different parameters', async () => {
    const directory = wsdlWithCopiedEndpoint(true);
    try {
      await expect(loadCatalog(directory)).rejects.toThrow(
        'GetStudentsInformation.wsdl and OtherInformation.wsdl both declare GetStudentInfoById, ' +
          'with different parameters or results',
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test('is accepted when both declare the same operation, which then has one handler', async () => {
    const directory = wsdlWithCopiedEndpoint(false);
    try {
      const catalog = await loadCatalog(directory);
      expect(catalog.endpointByPath('/OtherInformation.asmx')?.operations.map((operation) => operation.name)).toEqual([
        'GetStudentInfoByRecId',
        'GetStudentInfoById',
      ]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
