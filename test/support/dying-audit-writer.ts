import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { WriterSettings } from '../../src/audit/audit-writer';

/**
 * An audit trail writer that dies on the first batch it is sent, once in a data folder: the writer
 * started in its place finds the marker it left and is the real one.
 */
const marker = join((workerData as WriterSettings).store.dataDirectory, 'audit-writer-died');
if (existsSync(marker)) {
  require('../../src/audit/audit-writer');
} else {
  writeFileSync(marker, '');
  parentPort?.once('message', () => process.exit(3));
}
