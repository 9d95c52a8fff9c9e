import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Run as `node --import tsx files-holding.ts '{"folders": [...], "values": [...]}'`: prints, as
 * JSON, each value found in a file under the folders with the files that hold it. A process of its
 * own, so that reading the store's files never closes a descriptor of them in a process serving
 * from them (test/support/privacy-subject.ts says why).
 */

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Each value found in a file under the folders, with the files that hold it: nothing when none. */
function valuesInFiles(folders: readonly string[], values: readonly string[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const path of folders.flatMap(filesUnder)) {
    let bytes: Buffer;
    try {
      if (statSync(path).size === 0) continue;
      bytes = readFileSync(path);
    } catch (error) {
      // PostgreSQL removes files as it goes (a checkpoint's old segments): a file gone holds nothing.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const value of values) {
      if (bytes.includes(Buffer.from(value, 'utf8'))) found[value] = [...(found[value] ?? []), path];
    }
  }
  return found;
}

const { folders, values } = JSON.parse(process.argv[2] ?? '{}') as { folders: string[]; values: string[] };
process.stdout.write(JSON.stringify(valuesInFiles(folders, values)));
