import type { Command } from 'commander';
import { useRegisteredSchool } from './school-option';
import { type EraseOptions, subjectEraseCommand } from './subject-erase';
import { subjectExportCommand } from './subject-export';
import type { SubjectOptions } from './subject-options';

const SCHOOL = "the person is in this school's store of the deployment's (see schools list)";

/** `school-service subject export|erase`: a person's right of access, and to erasure (docs/privacy.md). */
export function registerSubjectCommand(program: Command, id: (text: string) => number): void {
  const subject = program.command('subject').description("a person's data: export it all, or erase it");
  subject
    .command('export <folder>')
    .description('write everything held about one person as JSON files and a PDF into a new folder')
    .option('--student <id>', 'the student', id)
    .option('--guardian <id>', 'the guardian', id)
    .option('--teacher <id>', 'the teacher', id)
    .option('--school <sourcedId>', SCHOOL)
    .action((folder: string, options: SubjectOptions & { school?: string }) => {
      useRegisteredSchool(options.school);
      return subjectExportCommand(folder, options);
    });
  subject
    .command('erase')
    .description(
      "remove a student's personal data (with their guardians' of no other child) or a teacher's from the store",
    )
    .option('--student <id>', 'the student', id)
    .option('--teacher <id>', 'the teacher', id)
    .requiredOption('--reason <text>', 'why (kept with the record of the erasure; name no one)')
    .option('--dry-run', 'list what would go, erasing nothing', false)
    .option('--school <sourcedId>', SCHOOL)
    .action((options: EraseOptions & { school?: string }) => {
      useRegisteredSchool(options.school);
      return subjectEraseCommand(options);
    });
}
