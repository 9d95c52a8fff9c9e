import { stringify } from 'csv-stringify';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

/**
 * Writes the files of a bundle, to a folder or, for a path ending in .zip, into a zip, each file
 * streamed as its rows come (UTF-8, CRLF as SIS exports write it, quoted where a field needs it).
 */
export interface BundleWriter {
  file(name: string, header: readonly string[]): CsvWriter;
  /** A file the bundle does not have: in a folder, one of that name from an earlier export is removed. */
  omit(name: string): Promise<void>;
  close(): Promise<void>;
}

export interface CsvWriter {
  /** Resolves once the row is taken, waiting while the file is behind (so memory stays bounded). */
  row(values: readonly unknown[]): Promise<void>;
  end(): Promise<void>;
}

export async function openBundleWriter(path: string): Promise<BundleWriter> {
  if (path.toLowerCase().endsWith('.zip')) return zipWriter(path);
  await mkdir(path, { recursive: true });
  return {
    file: (name, header) => csvWriter(createWriteStream(join(path, name)), header),
    omit: (name) => rm(join(path, name), { force: true }),
    close: async () => {},
  };
}

function zipWriter(path: string): BundleWriter {
  const zip = new yazl.ZipFile();
  const output = createWriteStream(path);
  zip.outputStream.pipe(output);
  return {
    file(name, header) {
      const entry = new PassThrough();
      zip.addReadStream(entry, name);
      return csvWriter(entry, header);
    },
    async omit() {},
    async close() {
      zip.end();
      await finished(output);
    },
  };
}

function csvWriter(target: Writable, header: readonly string[]): CsvWriter {
  const csv = stringify({ record_delimiter: 'windows', cast: { boolean: (value) => String(value) } });
  csv.pipe(target);
  const write = async (values: readonly unknown[]) => {
    const cells = values.map((value) => (value === null || value === undefined ? '' : value));
    if (!csv.write(cells)) await new Promise((resolve) => csv.once('drain', resolve));
  };
  let ready = write(header);
  return {
    async row(values) {
      await ready;
      ready = write(values);
      await ready;
    },
    async end() {
      await ready;
      csv.end();
      await finished(target);
    },
  };
}
