import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderSubjectSummary, type SummarySection } from '../documents/subject-summary';
import { CLASS_RECORDED_OPERATIONS } from '../operations/registry';
import { auditEntries } from '../store/queries/audit-trail';
import { studentGuardianIds } from '../store/queries/visibility';
import type { SubjectKind } from '../store/privacy/declaration-types';
import { PERSONAL_DATA } from '../store/privacy/declarations';
import { findSubject, schoolName, subjectRows, tablesAbout } from '../store/privacy/subject-rows';
import { withConfiguredStore } from './configured-store';
import { subjectOf, type SubjectOptions, unknownSubject } from './subject-options';
import { UsageError } from './usage-error';

type Row = Record<string, unknown>;

/** What a child's export shows of their guardians: who they are, their devices, and the messages sent to them. */
const SHOWN_OF_GUARDIANS: ReadonlySet<string> = new Set(['guardians', 'devices', 'outbox_messages']);

/** The kinds' titles in the school's two languages, for the PDF; a kind without one is titled by its file. */
const TITLES: Partial<Record<string, { nameAr: string; nameEn: string }>> = {
  students: { nameEn: 'Student', nameAr: 'الطالب' },
  student_records: { nameEn: 'Enrolments', nameAr: 'التسجيل في الفصول' },
  marks: { nameEn: 'Marks', nameAr: 'الدرجات' },
  attendance: { nameEn: 'Attendance', nameAr: 'الحضور والغياب' },
  student_notes: { nameEn: 'Notes', nameAr: 'الملاحظات' },
  generated_documents: { nameEn: 'Documents issued', nameAr: 'الوثائق الصادرة' },
  guardians: { nameEn: 'Guardian', nameAr: 'ولي الأمر' },
  student_guardians: { nameEn: 'Guardians and children', nameAr: 'أولياء الأمور والأبناء' },
  devices: { nameEn: 'Devices', nameAr: 'الأجهزة' },
  outbox_messages: { nameEn: 'Messages sent', nameAr: 'الرسائل المرسلة' },
  roster_ids: { nameEn: "The SIS's identifiers", nameAr: 'معرفات نظام معلومات الطلاب' },
  roster_fields: { nameEn: 'OneRoster fields kept', nameAr: 'حقول OneRoster المحفوظة' },
  audit: { nameEn: 'Who saw these records', nameAr: 'من اطلع على هذه السجلات' },
  teachers: { nameEn: 'Teacher', nameAr: 'المعلم' },
};

/** A row as the files show it: a document's bytes go to a file of their own, a sealed payload is named as such. */
function readable(table: string, row: Row, folder: string): Row {
  const shown: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
      const file = join('documents', `${String(row.id)}-${String(row.file_name ?? 'content')}`);
      mkdirSync(join(folder, 'documents'), { recursive: true });
      writeFileSync(join(folder, file), value);
      shown[column] = file;
    } else if (table === 'outbox_messages' && column === 'payload') {
      shown[column] = value === '' ? '(delivered or failed: emptied)' : '(sealed)';
    } else shown[column] = value;
  }
  return shown;
}

function line(row: Row): string {
  return Object.entries(row)
    .filter(([, value]) => value !== null && value !== '')
    .map(([column, value]) => `${column}: ${String(value)}`)
    .join(' · ');
}

/** Writes one JSON file per kind of data and returns the PDF's sections. */
async function writeKinds(folder: string, kinds: Array<[string, Row[]]>): Promise<SummarySection[]> {
  const sections: SummarySection[] = [];
  for (const [kind, rows] of kinds) {
    const declaration = PERSONAL_DATA[kind as keyof typeof PERSONAL_DATA];
    const shown = rows.map((row) => readable(kind, row, folder));
    const about = declaration ? { holds: declaration.holds, why: declaration.why, kept: declaration.kept } : {};
    writeFileSync(join(folder, `${kind}.json`), `${JSON.stringify({ kind, ...about, rows: shown }, null, 2)}\n`);
    sections.push({ title: TITLES[kind] ?? { nameEn: kind, nameAr: kind }, lines: shown.map(line) });
  }
  return sections;
}

function emptyFolder(path: string): string {
  const folder = resolve(path);
  if (existsSync(folder) && readdirSync(folder).length > 0)
    throw new UsageError(`${folder} is not empty: name a new folder`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/**
 * school-service subject export --student ID | --guardian ID | --teacher ID OUT: everything the
 * store holds about the person, found by the declarations of personal data, as one JSON file per
 * kind and one PDF in Arabic and English. Exit 2 for an unknown person.
 */
export async function subjectExportCommand(path: string, options: SubjectOptions): Promise<void> {
  const { kind, id } = subjectOf(options);
  await withConfiguredStore(
    async (store, config) => {
      const subject = await findSubject(store, kind, id, config.notifications.defaultCountryCode);
      if (!subject) throw unknownSubject(kind, id);
      const folder = emptyFolder(path);
      const kinds = new Map<string, Row[]>();
      const add = (table: string, rows: Row[]) => kinds.set(table, [...(kinds.get(table) ?? []), ...rows]);
      for (const [table, rows] of tablesAbout(kind)) {
        if (table === 'audit_events' || table === 'audit_subjects') continue;
        add(table, await subjectRows(store, table, rows, subject));
      }
      if (kind === 'student') {
        for (const guardianId of await studentGuardianIds(store, id)) {
          const guardian = await findSubject(store, 'guardian', guardianId, config.notifications.defaultCountryCode);
          for (const [table, rows] of tablesAbout('guardian')) {
            if (guardian && SHOWN_OF_GUARDIANS.has(table)) add(table, await subjectRows(store, table, rows, guardian));
          }
        }
        add('audit', await auditOf(store, id));
      }
      const sections = await writeKinds(folder, [...kinds]);
      const person = personName(kind, [...kinds]);
      const pdf = await renderSubjectSummary({
        school: await schoolName(store),
        person,
        issuedOn: new Date().toISOString().slice(0, 10),
        sections,
      });
      writeFileSync(join(folder, 'personal-data.pdf'), pdf);
      process.stdout.write(`Wrote ${kinds.size} files and personal-data.pdf about ${kind} ${id} to ${folder}.\n`);
    },
    { mustExist: true },
  );
}

async function auditOf(store: Parameters<typeof auditEntries>[0], student: number): Promise<Row[]> {
  const entries = await auditEntries(store, {
    student,
    classRecordedOperations: CLASS_RECORDED_OPERATIONS,
    caller: undefined,
    since: undefined,
    limit: 1_000_000,
  });
  return entries.map(({ subjects, ...event }) => ({ ...event, subjects: JSON.stringify(subjects) }));
}

function personName(kind: SubjectKind, kinds: Array<[string, Row[]]>): { nameAr: string; nameEn: string } {
  const own = kinds.find(
    ([table]) => table === { student: 'students', guardian: 'guardians', teacher: 'teachers' }[kind],
  );
  const row = own?.[1][0];
  return { nameAr: String(row?.name_ar ?? ''), nameEn: String(row?.name_en ?? '') };
}
