import type { KeptFileDeclaration } from './declaration-types';

/** The files the service writes and keeps, beside its tables. */
export const KEPT_FILES: readonly KeptFileDeclaration[] = [
  {
    where: 'DATA_DIR/school.sqlite, with its -wal and -shm files (SQLite only)',
    holds: 'The tables above.',
    whose: ['student', 'guardian', 'teacher', 'caller'],
    why: 'The embedded store.',
    kept: 'As the tables.',
    onErasure:
      'Deleted rows are overwritten with zeros (secure_delete), the file is rebuilt (VACUUM) and the ' +
      'write-ahead log emptied (wal_checkpoint(TRUNCATE)).',
  },
  {
    where: 'DATA_DIR/outbox.key (unless OUTBOX_KEY is set)',
    holds: 'The key that seals outbox payloads and digest secrets; nothing about anyone.',
    whose: [],
    why: 'Authentication codes are never stored in clear.',
    kept: 'As long as the store.',
    onErasure: 'Nothing to do.',
  },
  {
    where: 'DATA_DIR/audit-journal/',
    holds: 'Audited calls not yet written to the audit trail: caller, address, student and class ids.',
    whose: ['caller', 'student'],
    why: 'An answered call is in the audit trail even when the process is killed.',
    kept: 'A second or so: each file is deleted once its calls are in the store.',
    onErasure: 'Nothing to do: it holds ids only, as the audit trail does.',
  },
  {
    where: 'RECORD_FILE (serve --record), where the operator names it',
    holds: 'Calls let in, with their parameters (ids, phone numbers of AuthCode).',
    whose: ['student', 'guardian', 'caller'],
    why: 'Recorded calls are replayed against the legacy service during a migration.',
    kept: 'Until the operator deletes it; it is for the migration only.',
    onErasure: "Named in the erasure's output when it is set: the operator deletes or edits it.",
  },
  {
    where: 'A temporary folder (sis-sync-*) during a sync or import',
    holds: "The SIS's records being read: names, birth dates, phone numbers.",
    whose: ['student', 'guardian', 'teacher'],
    why: 'A large school is read to disk before it is written to the store.',
    kept: 'Deleted when the sync or import ends, whether it succeeded or not.',
    onErasure: 'Nothing to do once the sync has ended.',
  },
  {
    where: 'Backups: `school-service backup PATH` files, found in DATA_DIR and BACKUP_DIR',
    holds: 'A copy of every table.',
    whose: ['student', 'guardian', 'teacher', 'caller'],
    why: 'The school restores its store from them.',
    kept: "The school's own backup retention.",
    onErasure: "Listed in the erasure's output with their dates: the school applies its retention to them.",
  },
];
