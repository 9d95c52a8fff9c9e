import type { BundleReading } from '../bundle-reading';
import { assignIds, type BundleFile, type FilledRow, forEachRow, rowStart, takeRow } from '../read-file';
import {
  commonCells,
  type MetadataColumn,
  type OneRosterCollection,
  requiredIn,
  type RowsOf,
  storedRows,
} from './collection';
import { byColumns } from './rest-cells';

/**
 * orgs.csv: the school. The store holds one school: the bundle's one org of type school, or of
 * several the one --school names (other orgs, a district say, are only names rows may refer to).
 */
export const ORGS_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'name',
  'type',
  'identifier',
  'parentSourcedId',
] as const;

type Column = (typeof ORGS_COLUMNS)[number];

type ReadColumn = Column | MetadataColumn;

const ORG_TYPES = ['department', 'school', 'district', 'local', 'state', 'national'] as const;

async function readOrgs({ context }: BundleReading, file: BundleFile): Promise<void> {
  const { school } = context;
  const schools: Array<{
    line: number;
    start: NonNullable<ReturnType<typeof rowStart>>;
    row: FilledRow<'schools'>;
  }> = [];
  await forEachRow<ReadColumn>(context, file, requiredIn(orgs, context.version), (reader) => {
    const start = rowStart(context, reader, 'schools', 'metadata.contractId');
    if (!start) return;
    const name = reader.required('name') ?? '';
    const type = reader.oneOf('type', ORG_TYPES, true);
    if (reader.ok) context.orgs.add(start.sourcedId);
    if (type !== 'school') return;
    school.candidates.push({ sourcedId: start.sourcedId, name, identifier: reader.text('identifier') });
    // Another school than the one --school names: left out like the rows of it (and not given back).
    if (school.chosen !== undefined && school.chosen !== start.sourcedId) school.leftOut.skipped += 1;
    const row: FilledRow<'schools'> = { name_ar: name, name_en: reader.text('metadata.nameEn') || name };
    if (!reader.ok) context.book.markInvalid('schools', start.sourcedId, reader);
    else if (school.chosen === undefined || school.chosen === start.sourcedId) {
      schools.push({ line: reader.line, start, row });
    }
  });
  const reader = context.readers.get('orgs.csv');
  if (!reader) return;
  const chosenFound =
    school.candidates.some((found) => found.sourcedId === school.chosen) ||
    (context.mode === 'delta' && school.chosen !== undefined && context.book.find('schools', school.chosen));
  if (school.chosen !== undefined && !chosenFound) {
    reader.failAt(
      1,
      'type',
      'unknown-reference',
      `--school "${school.chosen}" names no org of type school in orgs.csv` +
        ` (its schools: ${school.candidates.map((found) => found.sourcedId).join(', ') || 'none'})`,
    );
  }
  // Several schools and none chosen: nothing is taken; the import stops and lists them.
  if (schools.length > 1) {
    school.needed = true;
    return;
  }
  for (const { line, start, row } of schools) {
    reader.begin({ line, values: [] });
    takeRow(context, reader, 'schools', start, row);
  }
  assignIds(context, 'schools');
  if (context.mode === 'bulk' && context.book.entries('schools').length === 0) {
    // Not a row --skip-invalid could leave out: what is left would be a school without its school.
    const problem = { file: 'orgs.csv', line: 1, column: 1, message: 'no org of type school' };
    context.problems.add({ ...problem, rule: 'missing-value' }, 'there is no school to write the rest into');
  }
}

export const orgs = {
  name: 'orgs',
  service: 'rostering',
  columns: ORGS_COLUMNS,
  required: ['sourcedId', 'name', 'type'],
  import: { fills: ['schools'], read: readOrgs },
  export: {
    reads: { whole: ['schools'] },
    header: [...ORGS_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'schools')) {
        yield {
          name: row.name_ar,
          type: 'school',
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
          ...commonCells(school, 'schools', row),
        };
      }
    },
  },
  fromRest: byColumns<Column>([
    ['name', 'name', 'text'],
    ['type', 'type', 'text'],
    ['identifier', 'identifier', 'text'],
    ['parentSourcedId', 'parent', 'ref'],
  ]),
} as const satisfies OneRosterCollection<'orgs', Column>;
