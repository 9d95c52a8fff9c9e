import { progressDisplay } from '../../src/roster/progress';

/** The import's progress lines count rows with their noun: "1 row", "12,345 rows". */
function capture(): { stream: NodeJS.WriteStream; lines: string[] } {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (text: string) => lines.push(text) !== 0 } as unknown as NodeJS.WriteStream;
  return { stream, lines };
}

describe('the progress display', () => {
  test('says "1 row" for one row and groups thousands', () => {
    const { stream, lines } = capture();
    const progress = progressDisplay(stream);
    progress.file('users.csv', 0);
    progress.fileDone(1);
    progress.file('results.csv', 0);
    progress.fileDone(12_345);
    progress.file('orgs.csv', 0);
    progress.fileDone(0);
    expect(lines[0]).toMatch(/^users\.csv: 1 row in \d+\.\d s\n$/);
    expect(lines[1]).toMatch(/^results\.csv: 12,345 rows in \d+\.\d s\n$/);
    expect(lines[2]).toMatch(/^orgs\.csv: 0 rows in /);
  });
});
