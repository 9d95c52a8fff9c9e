import { NOT_PERSONAL as NO, personal, type TableDeclarations } from './declaration-types';

const RUNNING = "The service's own bookkeeping.";

/** What the service keeps to run: the outbox, callers, the audit trail, imports, the migration's ledger. */
export const SERVICE_DECLARATIONS: TableDeclarations<
  | 'outbox_messages'
  | 'rate_limit_events'
  | 'callers'
  | 'ws_security_nonces'
  | 'audit_events'
  | 'audit_subjects'
  | 'roster_ids'
  | 'roster_fields'
  | 'roster_imports'
  | 'service_processes'
  | 'reference_versions'
  | 'store_key'
  | 'shadow_comparisons'
  | 'shadow_differences'
  | 'sis_sync_state'
  | 'sis_sync_runs'
  | 'subject_erasures'
  | 'students_left'
  | 'retention_runs'
> = {
  outbox_messages: {
    holds: 'An SMS or push accepted for delivery (authentication codes, mark notifications, pushes).',
    why: 'Delivered with retries, and counted; the content is sealed and emptied once delivered or failed.',
    kept: "Until the recipient guardian is erased; a student's own number's messages go with the student.",
    columns: {
      id: NO,
      reference: NO,
      channel: NO,
      recipient: personal('guardian', 'phone number or push token it went to'),
      device_id: personal('guardian', 'the device it went to'),
      payload: personal('guardian', 'the text sent, sealed (AES-256-GCM); emptied once final'),
      idempotency_key: NO,
      state: NO,
      attempts: NO,
      next_attempt_at: NO,
      lease_owner: NO,
      lease_until: NO,
      last_error: NO,
      created_at: personal('guardian', 'when it was asked for'),
      finished_at: NO,
    },
    about: { student: { rule: 'sent-to' }, guardian: { rule: 'sent-to' } },
  },
  rate_limit_events: {
    holds: 'One request counted against a rate limit.',
    why: 'Limits authentication codes per phone number and pushes per device and caller.',
    kept: 'Pruned once older than the longest limit window (an hour).',
    columns: {
      bucket: personal('guardian', 'a hash of the phone number, device or caller counted'),
      occurred_at: NO,
    },
  },
  callers: {
    holds: 'A caller the operator let in.',
    why: 'Who may call what, and which records they may see.',
    kept: 'Until the operator removes it (revoked callers stay listed, without being let in).',
    columns: {
      id: NO,
      name: personal('caller', "the caller's name, which may name a person (parent-4711)"),
      networks: personal('caller', 'the networks it calls from'),
      secret_hash: NO,
      digest_secret: NO,
      operations: NO,
      scope: personal('caller', 'the teacher, guardian or student it acts for'),
      expires_at: NO,
      created_at: NO,
      changed_at: NO,
      revoked_at: NO,
      previous_secret_hash: NO,
      previous_digest_secret: NO,
      previous_secret_until: NO,
    },
    about: {
      student: { rule: 'scoped-callers' },
      guardian: { rule: 'scoped-callers' },
      teacher: { rule: 'scoped-callers' },
    },
    erasure: { keep: 'a caller scoped to an erased person sees nothing; the operator revokes it (callers revoke)' },
  },
  ws_security_nonces: {
    holds: 'A WS-Security nonce seen recently (hashed).',
    why: 'A replayed token is refused.',
    kept: 'Pruned after the replay window (WS_SECURITY_WINDOW_SECONDS).',
    columns: { nonce_hash: NO, seen_at: NO },
  },
  audit_events: {
    holds: 'An audited call: who called what, from where, when.',
    why: "Who saw a child's records must be answerable (school-service audit --student).",
    kept: 'AUDIT_RETENTION_DAYS (365 by default); an erasure keeps it, as the ids it names say nothing more.',
    columns: {
      id: NO,
      occurred_at: personal('caller', 'when they called'),
      caller: personal('caller', 'who called'),
      address: personal('caller', 'the address they called from'),
      operation: NO,
      binding: NO,
      outcome: NO,
      teachers: personal('teacher', 'the teachers the answer showed, by id'),
      calls: NO,
    },
    about: { student: { rule: 'audited-calls' } },
    erasure: { keep: 'who saw which id, when: the record the school must keep' },
  },
  audit_subjects: {
    holds: 'A student or class an audited call touched, by id.',
    why: "The audit trail is searched by child: who saw this child's records.",
    kept: 'As audit_events; an erasure keeps the id (caller X saw student ID on day D), nothing else.',
    columns: { event_id: NO, kind: NO, subject_id: personal('student', 'whose records were seen (an id)') },
    about: { student: { rule: 'audited-calls' } },
    erasure: { keep: 'the id alone, so that earlier calls stay answerable' },
  },
  roster_ids: {
    holds: "The SIS's sourcedId of each imported record, and the id it was given.",
    why: 'A later import or sync finds the same record again.',
    kept: "As the record it names; an erasure deletes the erased people's.",
    columns: {
      kind: NO,
      sourced_id: personal('student', "the SIS's identifier of the person or record"),
      id: NO,
      modified_at: NO,
    },
    about: { student: { rule: 'roster-ids' }, guardian: { rule: 'roster-ids' } },
  },
  roster_fields: {
    holds: "An imported OneRoster row's fields the store does not model (email, username, ...).",
    why: 'An export gives back the bundle the school gave.',
    kept: "Until the next bulk import replaces it; an erasure deletes the erased people's rows.",
    columns: {
      file: NO,
      sourced_id: personal('student', "the SIS's identifier of the person or record"),
      fields: personal('student', 'the row: names, email, username, birth date, phone, of students and guardians'),
    },
    about: { student: { rule: 'roster-fields' }, guardian: { rule: 'roster-fields' } },
  },
  roster_imports: {
    holds: 'One import or sync: when, how, how many rows.',
    why: RUNNING,
    kept: 'As long as the store.',
    columns: {
      id: NO,
      started_at: NO,
      finished_at: NO,
      mode: NO,
      source: NO,
      rows_written: NO,
      rows_skipped: NO,
    },
  },
  service_processes: {
    holds: 'A process serving from this store.',
    why: RUNNING,
    kept: 'While the process runs.',
    columns: { id: NO, node: NO, pid: NO, version: NO, started_at: NO, seen_at: NO },
  },
  reference_versions: {
    holds: "The reference data's version (one row).",
    why: RUNNING,
    kept: 'As long as the store.',
    columns: { id: NO, version: NO },
  },
  store_key: {
    holds: "The fingerprint of the key sealing the store's data (one row).",
    why: RUNNING,
    kept: 'As long as the store.',
    columns: { id: NO, fingerprint: NO, recorded_at: NO },
  },
  shadow_comparisons: {
    holds: "How this service's answers compared with the legacy service's, counted by day.",
    why: 'The migration from the legacy service is judged by them.',
    kept: 'Pruned by day (see the migration guide).',
    columns: { day: NO, operation: NO, binding: NO, outcome: NO, count: NO },
  },
  shadow_differences: {
    holds: 'Where two answers differed, with one masked example pair.',
    why: 'The migration from the legacy service is judged by them.',
    kept: 'Pruned by day; an erasure deletes the examples that hold the erased values.',
    columns: {
      day: NO,
      operation: NO,
      binding: NO,
      path: NO,
      noisy: NO,
      count: NO,
      local_example: personal('student', 'part of an answer, masked (it may hold a name)'),
      legacy_example: personal('student', "part of the legacy service's answer, masked"),
    },
    about: { student: { rule: 'examples' }, guardian: { rule: 'examples' } },
  },
  sis_sync_state: {
    holds: "The sync's lease and progress (one row).",
    why: RUNNING,
    kept: 'As long as the store.',
    columns: { id: NO, lease_holder: NO, lease_until: NO, synced_until: NO },
  },
  sis_sync_runs: {
    holds: 'One sync from the SIS, for the status page.',
    why: RUNNING,
    kept: 'The latest runs only.',
    columns: {
      started_at: NO,
      finished_at: NO,
      node: NO,
      mode: NO,
      outcome: NO,
      records: NO,
      added: NO,
      changed: NO,
      deleted: NO,
      warnings: NO,
      problems: NO,
      requests: NO,
      message: NO,
      changes: NO,
      duplicates: NO,
    },
  },
  subject_erasures: {
    holds: "One erasure of a person's data: the id that went, who erased it, when and why.",
    why: 'The school shows that it answered a request for erasure (GDPR article 17).',
    kept: 'As long as the store.',
    columns: {
      erased_at: NO,
      kind: NO,
      subject_id: personal('student', 'the erased id (nothing else of them is kept)'),
      erased_by: personal('caller', "the operator's account that erased"),
      reason: NO,
      guardians_erased: NO,
    },
  },
  students_left: {
    holds: 'When a student was first seen without an active enrolment.',
    why: 'The retention after leaving (RETENTION_AFTER_LEAVING_DAYS) counts its days from it.',
    kept: 'Until the student is erased, or enrolled again.',
    columns: { student_id: personal('student', 'who left'), left_on: personal('student', 'when they left') },
    about: { student: { column: 'student_id' } },
  },
  retention_runs: {
    holds: "One day's run of the retention after leaving: which node ran it, how many it erased.",
    why: RUNNING,
    kept: 'As long as the store.',
    columns: { day: NO, node: NO, started_at: NO, erased: NO },
  },
};
