import type { ImportConnection } from './import-connection';

/**
 * The imported rows' fields an export gives back (table roster_fields): one JSON object per file
 * and sourcedId. A bulk import replaces them all; a delta replaces the rows it lists and forgets
 * the ones it deletes.
 */
export async function writeKeptFields(
  connection: ImportConnection,
  bulk: boolean,
  kept: AsyncIterable<ReadonlyArray<readonly [file: string, sourcedId: string, fields: string]>>,
  forgotten: ReadonlyArray<readonly [file: string, sourcedId: string]>,
): Promise<void> {
  if (bulk) await connection.run('DELETE FROM roster_fields');
  for (const [file, sourcedId] of forgotten) {
    await connection.run('DELETE FROM roster_fields WHERE file = ? AND sourced_id = ?', [file, sourcedId]);
  }
  for await (const batch of kept) {
    await connection.insert(
      'roster_fields',
      ['file', 'sourced_id', 'fields'],
      batch,
      ' ON CONFLICT (file, sourced_id) DO UPDATE SET fields = excluded.fields',
    );
  }
}

/** Every kept row, by file then sourcedId, in sourcedId order. */
export async function readKeptFields(
  connection: ImportConnection,
): Promise<Map<string, Map<string, Record<string, string>>>> {
  const files = new Map<string, Map<string, Record<string, string>>>();
  const rows = await connection.all<{ file: string; sourced_id: string; fields: string }>(
    'SELECT file, sourced_id, fields FROM roster_fields ORDER BY file, sourced_id',
  );
  for (const row of rows) {
    let file = files.get(row.file);
    if (!file) {
      file = new Map();
      files.set(row.file, file);
    }
    file.set(row.sourced_id, JSON.parse(row.fields) as Record<string, string>);
  }
  return files;
}
