import type { Store } from '../../src/store/open-store';
import { SCHOOL_TABLES } from '../../src/store/roster/school-tables';
import { schoolRows } from './roster-import';

/**
 * A school's store in a form two stores can be compared by whatever way they were filled: the
 * integer ids, which depend on the order records arrived in (a delta adds after the last id, a
 * bulk import numbers in file order), are replaced by the record's sourcedIds from the ledger,
 * or, for a record no row of a bundle brought (a class section made by the import, a subject of a
 * class), by its own canonical row. A reference is written as the key of the row it names. Each
 * table is a sorted list of rows, duplicates kept; kept fields (what export gives back) are listed
 * by file and sourcedId.
 */
export interface StoreDump {
  readonly tables: Record<string, string[]>;
  readonly kept: Record<string, Record<string, string>>;
}

/** Fields of a kept row that say when and how it came, not what the record is: each path writes its own. */
const ARRIVAL_FIELDS = new Set(['status', 'dateLastModified']);

export async function storeDump(store: Store): Promise<StoreDump> {
  const sourcedIds = await ledgerKeys(store);
  const rows = await schoolRows(store);
  const keys = new Map<string, Map<unknown, string>>();
  const tables: Record<string, string[]> = {};
  for (const table of SCHOOL_TABLES) {
    const tableKeys = new Map<unknown, string>();
    keys.set(table.name, tableKeys);
    tables[table.name] = (rows[table.name] as Array<Record<string, unknown>>)
      .map((row) => {
        const { id, ...fields } = row;
        for (const [column, target] of Object.entries(table.references)) {
          const value = fields[column];
          if (value !== null && value !== undefined)
            fields[column] = keys.get(target)?.get(value) ?? `unknown ${value}`;
        }
        const content = JSON.stringify(fields);
        const ledger = sourcedIds.get(`${table.name} ${id}`);
        if (table.hasId) tableKeys.set(id, ledger ? `${table.name}:${ledger}` : content);
        return ledger ? `${ledger} ${content}` : content;
      })
      .sort();
  }
  return { tables, kept: await keptRows(store) };
}

/** `table id` -> the sourcedIds the ledger gives that record. */
async function ledgerKeys(store: Store): Promise<Map<string, string>> {
  const entries = await store.db.selectFrom('roster_ids').select(['kind', 'sourced_id', 'id']).execute();
  const byRecord = new Map<string, string[]>();
  for (const entry of entries) {
    const key = `${entry.kind} ${entry.id}`;
    byRecord.set(key, [...(byRecord.get(key) ?? []), entry.sourced_id]);
  }
  return new Map([...byRecord].map(([key, list]) => [key, list.sort().join('|')]));
}

async function keptRows(store: Store): Promise<Record<string, Record<string, string>>> {
  const rows = await store.db.selectFrom('roster_fields').selectAll().execute();
  const kept: Record<string, Record<string, string>> = {};
  for (const row of rows.sort((a, b) => `${a.file} ${a.sourced_id}`.localeCompare(`${b.file} ${b.sourced_id}`))) {
    const fields = JSON.parse(row.fields) as Record<string, string>;
    kept[`${row.file} ${row.sourced_id}`] = Object.fromEntries(
      Object.entries(fields).filter(([column]) => !ARRIVAL_FIELDS.has(column)),
    );
  }
  return kept;
}
