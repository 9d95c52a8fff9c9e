import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { CONTRACT_TYPES_PATH, renderContractTypes } from '../../scripts/contract-types/render-types';
import { loadCatalog } from '../../src/contract/catalog';
import type { TypeRef } from '../../src/contract/types';
import { WSDL_DIRECTORY } from '../../src/contract/wsdl-directory';
import { ROOT } from '../support/cli';

const FIXTURES = join(__dirname, 'fixtures');

/** The type errors tsc reports for each fixture, compiled with the project's own options. */
function typeErrorsOf(fixtures: readonly string[]): Map<string, string[]> {
  const configFile = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  const files = fixtures.map((name) => join(FIXTURES, name));
  const program = ts.createProgram(files, { ...options, noEmit: true });
  return new Map(
    files.map((file, index) => [
      fixtures[index],
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
    ]),
  );
}

describe('the contract types the code', () => {
  test(`${CONTRACT_TYPES_PATH} is what npm run contract:types generates from wsdl/typed/ now`, async () => {
    const generated = renderContractTypes(await loadCatalog(WSDL_DIRECTORY));
    expect(readFileSync(join(ROOT, CONTRACT_TYPES_PATH), 'utf8')).toBe(generated);
  });

  test('a store record or a handler result whose field is renamed or misspelt does not compile', () => {
    const errors = typeErrorsOf([
      'store-query-correct.ts',
      'store-query-renamed-field.ts',
      'handler-misspelt-field.ts',
    ]);
    expect(errors.get('store-query-correct.ts')).toEqual([]);
    expect(errors.get('store-query-renamed-field.ts')?.join('\n')).toMatch(/Property 'nameAr' is missing/);
    expect(errors.get('handler-misspelt-field.ts')?.join('\n')).toMatch(
      /'isPositiv' does not exist in type 'NoteType'/,
    );
  });

  test('a row of a collection or an import naming a column its file or its table lacks does not compile', () => {
    const errors = typeErrorsOf([
      'collection-rows-correct.ts',
      'collection-misspelt-column.ts',
      'collection-misspelt-stored-column.ts',
      'own-file-misspelt-table-column.ts',
      'import-reader-correct.ts',
      'import-reader-misspelt-table-column.ts',
    ]);
    expect(errors.get('collection-rows-correct.ts')).toEqual([]);
    expect(errors.get('collection-misspelt-column.ts')?.join('\n')).toMatch(/'courseCod' does not exist in type/);
    expect(errors.get('collection-misspelt-stored-column.ts')?.join('\n')).toMatch(
      /Property 'title_ar' does not exist on type 'StoredRowOf<"subjects">'/,
    );
    expect(errors.get('own-file-misspelt-table-column.ts')?.join('\n')).toMatch(/'title_en' does not exist in type/);
    expect(errors.get('import-reader-correct.ts')).toEqual([]);
    expect(errors.get('import-reader-misspelt-table-column.ts')?.join('\n')).toMatch(
      /'name_eng' does not exist in type 'FilledRow<"subjects">'/,
    );
  });

  test("an operation's policy row that leaves a text parameter without a bound does not compile", () => {
    expect(typeErrorsOf(['policy-without-bound.ts']).get('policy-without-bound.ts')?.join('\n')).toMatch(
      /Property 'StudentId' is missing/,
    );
  });

  test("the operations without one of them, or with one filed under another's name, do not compile", () => {
    const errors = typeErrorsOf(['operations-incomplete.ts']).get('operations-incomplete.ts')?.join('\n');
    expect(errors).toMatch(/Property 'HelloWorld' is missing/);
    expect(errors).toMatch(/'OperationHandler<"AuthCode">' is not assignable to type 'OperationHandler<"HelloWorld">'/);
  });
});

describe('personal data in the contract', () => {
  test("no result carries a guardian's or a teacher's phone number: the only phone is a student's own", async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    const phones: string[] = [];
    const visit = (type: TypeRef, seen = new Set<string>()) => {
      if (type.kind === 'primitive' || seen.has(type.name)) return;
      seen.add(type.name);
      if (type.kind === 'array') visit(type.item, seen);
      else
        for (const field of type.fields) {
          if (/phone/i.test(field.element)) phones.push(`${type.name}.${field.element}`);
          visit(field.type, seen);
        }
    };
    for (const operation of catalog.operations) if (operation.results.typed) visit(operation.results.typed.type);
    expect([...new Set(phones)]).toEqual(['StudentInfo.Phone']);
  });
});
