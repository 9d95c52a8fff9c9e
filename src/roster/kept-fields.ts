import type { ImportConnection } from '../store/roster/import-connection';
import { writeKeptFields } from '../store/roster/kept-fields';

/**
 * The fields of the rows an import accepts, kept so that `export` gives back the bundle the school
 * gave (the district org, grading periods, email, location, metadata.* ... that the store does not
 * model). The readers of OneRoster files keep each accepted row whole (read-file.ts does it for
 * them); a reader of a file it reads itself, or one that keeps only some fields of a large file,
 * calls `keepUnusedFields` while reading. Written with the school, in the same transaction.
 */
export class KeptFields {
  private readonly kept = new Map<string, Map<string, string>>();
  private readonly forgotten: Array<[string, string]> = [];

  /**
   * Keeps a row's fields (header name -> value; empty values are dropped) under its file
   * (`users.csv`) and sourcedId; a later call for the same row replaces the earlier.
   */
  keepUnusedFields(file: string, sourcedId: string, row: Readonly<Record<string, string>>): void {
    const fields = Object.fromEntries(Object.entries(row).filter(([, value]) => value !== ''));
    let rows = this.kept.get(file);
    if (!rows) {
      rows = new Map();
      this.kept.set(file, rows);
    }
    rows.set(sourcedId, JSON.stringify(fields));
  }

  /** A row a delta deletes (status tobedeleted): its kept fields go too. */
  forget(file: string, sourcedId: string): void {
    this.kept.get(file)?.delete(sourcedId);
    this.forgotten.push([file, sourcedId]);
  }

  /** Writes what was kept: a bulk import's replaces all, a delta's the rows it names. */
  async write(connection: ImportConnection, bulk: boolean): Promise<void> {
    const rows = [...this.kept].flatMap(([file, byId]) =>
      [...byId].map(([sourcedId, fields]) => [file, sourcedId, fields] as const),
    );
    await writeKeptFields(connection, bulk, rows, this.forgotten);
  }
}
