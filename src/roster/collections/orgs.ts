import { commonCells, type OneRosterCollection, type RowsOf, storedRows } from './collection';
import { byColumns } from './rest-cells';

/** orgs.csv: the school (import: calendar-files.ts, readOrgs). */
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

export const orgs = {
  name: 'orgs',
  service: 'rostering',
  columns: ORGS_COLUMNS,
  required: ['sourcedId', 'name', 'type'],
  export: {
    header: [...ORGS_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'schools')) {
        yield {
          ...commonCells(school, 'schools', row),
          name: row.name_ar,
          type: 'school',
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
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
