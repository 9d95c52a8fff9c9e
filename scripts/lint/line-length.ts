import { readFileSync } from 'node:fs';

/** The project's longest line, in characters. */
export const MAX_LINE_LENGTH = 120;

/** The extensions of the files held to it: the code, in every language the project writes. */
export const CODE_EXTENSIONS = ['.ts', '.js', '.cjs', '.mjs', '.py', '.php', '.java', '.cs', '.h', '.c', '.cpp', '.sh'];

/** "file:line (length)" for every line of the file longer than the limit. */
export function longLines(file: string, label = file): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, index) => {
      const length = [...line.replace(/\r$/, '')].length;
      return length > MAX_LINE_LENGTH ? [`${label}:${index + 1} (${length} characters)`] : [];
    });
}
