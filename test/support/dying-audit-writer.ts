import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { ToWriter } from '../../src/audit/audit-writer';

/**
 * An audit trail writer that dies on the first batch it is sent for a data folder, once in that
 * folder: it leaves a marker there, and a writer started in its place finds it and writes as the
 * real one does. Its listener is added before the real writer's, so it sees each message first.
 */
const folders = new Map<number, string>();
parentPort?.on('message', (message: ToWriter) => {
  if (message.kind === 'attach') folders.set(message.trail, message.settings.store.dataDirectory);
  if (message.kind !== 'batch') return;
  const marker = join(folders.get(message.trail) ?? '.', 'audit-writer-died');
  if (existsSync(marker)) return;
  writeFileSync(marker, '');
  process.exit(3);
});
require('../../src/audit/audit-writer');
