import type { Command } from 'commander';
import { type EraseOptions, subjectEraseCommand } from './subject-erase';
import { subjectExportCommand } from './subject-export';
import type { SubjectOptions } from './subject-options';

/** `school-service subject export|erase`: a person's right of access, and to erasure (docs/privacy.md). */
export function registerSubjectCommand(program: Command, id: (text: string) => number): void {
  const subject = program.command('subject').description("a person's data: export it all, or erase a student");
  subject
    .command('export <folder>')
    .description('write everything held about one person as JSON files and a PDF into a new folder')
    .option('--student <id>', 'the student', id)
    .option('--guardian <id>', 'the guardian', id)
    .option('--teacher <id>', 'the teacher', id)
    .action((folder: string, options: SubjectOptions) => subjectExportCommand(folder, options));
  subject
    .command('erase')
    .description("remove a student's personal data, and their guardians' of no other child, from the store")
    .requiredOption('--student <id>', 'the student', id)
    .requiredOption('--reason <text>', 'why (kept with the record of the erasure; name no one)')
    .option('--dry-run', 'list what would go, erasing nothing', false)
    .action((options: EraseOptions) => subjectEraseCommand(options));
}
