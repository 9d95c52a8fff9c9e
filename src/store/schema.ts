import type { Generated } from 'kysely';
import type {
  SchoolTable,
  AcademicYearTable,
  TermTable,
  GradeLevelTable,
  ClassTable,
  SubjectTable,
  TeacherTable,
  TeacherAssignmentTable,
  StudentTable,
  StudentRecordTable,
  GuardianTable,
  StudentGuardianTable,
  DeviceTable,
  AssessmentTable,
  AssessmentCategoryTable,
  ClassSubjectTable,
  MarkTable,
  AbsenceTypeTable,
  AttendanceTable,
  NoteTypeTable,
  StudentNoteTable,
  ClassNoteTable,
  ExamTable,
  ExamSlotTable,
} from './school-schema';

/**
 * The store's relational schema, as kysely types: the school's records (school-schema.ts, which
 * states the conventions of ids, dates and times) and the service's own tables, below, that
 * documents, delivery, access, audit, imports, the migration and the sync keep; `Database` names
 * every table.
 */

export * from './school-schema';

/**
 * An issued report card or term book. Found again by the fingerprint of everything it shows
 * except its date of issue, so an unchanged request gets the same file back.
 */
export interface GeneratedDocumentTable {
  id: Generated<number>;
  kind: 'report-card' | 'term-book';
  student_record_id: number;
  term_id: number;
  /** SHA-256 (hex) of the document's inputs. */
  input_fingerprint: string;
  /** SHA-256 (hex) of the file's bytes. */
  content_hash: string;
  file_name: string;
  content_type: string;
  size: number;
  content: Buffer;
  issued_on: string;
}

export type OutboxChannel = 'sms' | 'push';
export type OutboxState = 'queued' | 'retrying' | 'sent' | 'failed';
export const OUTBOX_STATES: readonly OutboxState[] = ['queued', 'retrying', 'sent', 'failed'];

/** One SMS or push accepted for delivery. */
export interface OutboxMessageTable {
  id: Generated<number>;
  /** The delivery reference the accepting call answered with. */
  reference: string;
  channel: OutboxChannel;
  /** An E.164 phone number (SMS) or a push token. */
  recipient: string;
  /** The device a push goes to, disabled when the gateway reports its token gone. */
  device_id: number | null;
  /** The content, sealed (AES-256-GCM) so that an authentication code is never stored in clear; emptied once final. */
  payload: string;
  idempotency_key: string | null;
  state: OutboxState;
  attempts: number;
  next_attempt_at: string;
  /** The worker holding the message while it sends it, until lease_until. */
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** One request counted against a rate limit; buckets are hashes, never a phone number in clear. */
export interface RateLimitEventTable {
  bucket: string;
  occurred_at: string;
}

/** A caller the operator let in: how it is recognised, what it may call, what it may see. */
export interface CallerTable {
  id: Generated<number>;
  name: string;
  /** JSON array of CIDR networks; empty when the caller is recognised by its secret alone. */
  networks: string;
  /** scrypt$N$r$p$salt$hash of the secret, or null when recognised by network alone. */
  secret_hash: string | null;
  /** The secret sealed with the service's key, only for callers that use WS-Security PasswordDigest. */
  digest_secret: string | null;
  /** JSON array of operation names and group names. */
  operations: string;
  /** school, teacher:ID, guardian:ID or student:ID. */
  scope: string;
  expires_at: string | null;
  created_at: string;
  changed_at: string;
  revoked_at: string | null;
  /** The replaced secret's hash, kept after a rotation; null when the secret was never replaced. */
  previous_secret_hash: string | null;
  /** The replaced secret sealed, for WS-Security digests, when the caller uses them. */
  previous_digest_secret: string | null;
  /** Until when the replaced secret is still let in (the rotation's grace period). */
  previous_secret_until: string | null;
  /** 1 for a district caller (of the deployment's own store), let in at every school of the deployment; else 0. */
  all_schools: Generated<number>;
}

/** A WS-Security nonce seen within the replay window (SHA-256 of the caller's name and nonce). */
export interface WsSecurityNonceTable {
  nonce_hash: string;
  seen_at: string;
}

/** One audited call. */
export interface AuditEventTable {
  /** Its time, then who wrote it and a count (2026-11-24T10:47:36.123Z/3f9a2c/1): in time order, unique. */
  id: string;
  occurred_at: string;
  caller: string;
  address: string;
  operation: string;
  binding: string;
  /** ok (it returned data, a document or a delivery reference) or failed. */
  outcome: string;
  /** The teachers it showed, comma-separated ('' for none). */
  teachers: string;
  /** How many such calls there were within the second: repeats of one call are one entry. */
  calls: number;
  /** The district school it was answered at (its sourcedId); null at the deployment's own school. */
  school: string | null;
}

/** A student or class an audited call touched, to find the call by. */
export interface AuditSubjectTable {
  event_id: string;
  kind: 'student' | 'class';
  subject_id: number;
}

/** The sourcedId of every record an import brought, and the integer id it was given once. */
/** An imported row's fields, given back by an export (see migration 014). */
export interface RosterFieldTable {
  /** The bundle's file name, `users.csv`. */
  file: string;
  sourced_id: string;
  /** The row's non-empty fields as a JSON object keyed by header name. */
  fields: string;
}

export interface RosterIdTable {
  /** The table the record lives in. */
  kind: string;
  sourced_id: string;
  id: number;
  /** Its dateLastModified, for delta imports. */
  modified_at: string | null;
}

export interface RosterImportTable {
  id: Generated<number>;
  started_at: string;
  finished_at: string;
  mode: 'bulk' | 'delta';
  source: string;
  rows_written: number;
  rows_skipped: number;
}

/** A process serving from this store; `node` is the machine's name and port, shared by its workers. */
export interface ServiceProcessTable {
  id: string;
  node: string;
  pid: number;
  version: string;
  started_at: string;
  seen_at: string;
}

/** One row: moved on by triggers whenever a reference table changes (migration 007). */
export interface ReferenceVersionTable {
  id: number;
  version: number;
}

/** A file's outline saved at a version of the school's records (migration 023), as JSON. */
export interface RosterOutlineTable {
  file: string;
  version: number;
  outline: string;
}

/** The fingerprint of the key that seals the store's data (one row). */
export interface StoreKeyTable {
  id: number;
  fingerprint: string;
  recorded_at: string;
}

/** Comparisons of this service's answers with the legacy service's, counted by day (migration 011). */
export interface ShadowComparisonTable {
  day: string;
  operation: string;
  binding: string;
  outcome: string;
  count: number;
}

/** A field path where the two answers differed, counted by day, with one masked example pair. */
export interface ShadowDifferenceTable {
  day: string;
  operation: string;
  binding: string;
  path: string;
  /** 1 when the legacy service differs from itself there (noise), 0 for a real difference. */
  noisy: number;
  count: number;
  local_example: string;
  legacy_example: string;
}

/** The sync's lease and progress (migration 012): one row. */
export interface SisSyncStateTable {
  id: number;
  lease_holder: string | null;
  lease_until: string | null;
  synced_until: string | null;
}

/** One OneRoster REST sync, kept for the status page. */
export interface SisSyncRunTable {
  started_at: string;
  finished_at: string;
  node: string;
  mode: string;
  outcome: string;
  records: number;
  added: number;
  changed: number;
  deleted: number;
  warnings: number;
  problems: number;
  requests: number;
  message: string;
  /** Per table, `{"marks":{"added":1,"changed":0,"deleted":0}}`: the import's own figures. */
  changes: string;
  /** Records the provider sent twice (taken once). */
  duplicates: number;
}

/** One erasure of a person's data (migration 017): the id that went, who erased it, when and why. */
export interface SubjectErasureTable {
  erased_at: string;
  kind: 'student' | 'guardian' | 'teacher';
  subject_id: number;
  /** The operator's account that ran the command, or `retention` when the service erased by itself. */
  erased_by: string;
  reason: string;
  /** How many guardians, guardian of no other child, went with the student. */
  guardians_erased: number;
}

/** When a student was first seen without an active enrolment (migration 018). */
export interface StudentLeftTable {
  student_id: number;
  left_on: string;
}

/** A record an import, a sync or an erasure deleted (migration 019): served to delta consumers as tobedeleted. */
export interface RosterTombstoneTable {
  /** The table the record lived in (as roster_ids.kind). */
  kind: string;
  sourced_id: string;
  deleted_at: string;
}

/** One day's run of the retention after leaving: inserted by the one process that runs it. */
export interface RetentionRunTable {
  day: string;
  node: string;
  started_at: string;
  erased: number;
}

export interface Database {
  schools: SchoolTable;
  academic_years: AcademicYearTable;
  terms: TermTable;
  grade_levels: GradeLevelTable;
  classes: ClassTable;
  subjects: SubjectTable;
  teachers: TeacherTable;
  teacher_assignments: TeacherAssignmentTable;
  students: StudentTable;
  student_records: StudentRecordTable;
  guardians: GuardianTable;
  student_guardians: StudentGuardianTable;
  devices: DeviceTable;
  assessment_categories: AssessmentCategoryTable;
  assessments: AssessmentTable;
  class_subjects: ClassSubjectTable;
  marks: MarkTable;
  absence_types: AbsenceTypeTable;
  attendance: AttendanceTable;
  note_types: NoteTypeTable;
  student_notes: StudentNoteTable;
  class_notes: ClassNoteTable;
  exams: ExamTable;
  exam_slots: ExamSlotTable;
  generated_documents: GeneratedDocumentTable;
  outbox_messages: OutboxMessageTable;
  rate_limit_events: RateLimitEventTable;
  callers: CallerTable;
  ws_security_nonces: WsSecurityNonceTable;
  audit_events: AuditEventTable;
  audit_subjects: AuditSubjectTable;
  roster_ids: RosterIdTable;
  roster_fields: RosterFieldTable;
  roster_imports: RosterImportTable;
  service_processes: ServiceProcessTable;
  reference_versions: ReferenceVersionTable;
  /** The version of the school's records but marks (migration 020), shaped as reference_versions. */
  roster_versions: ReferenceVersionTable;
  /** The version of what users.csv's outline is read from (migration 023), shaped as reference_versions. */
  roster_users_versions: ReferenceVersionTable;
  roster_outlines: RosterOutlineTable;
  store_key: StoreKeyTable;
  shadow_comparisons: ShadowComparisonTable;
  shadow_differences: ShadowDifferenceTable;
  sis_sync_state: SisSyncStateTable;
  sis_sync_runs: SisSyncRunTable;
  subject_erasures: SubjectErasureTable;
  students_left: StudentLeftTable;
  retention_runs: RetentionRunTable;
  roster_tombstones: RosterTombstoneTable;
}
