import { progressBar } from '../../src/demo/progress-bar';

function fakeStream(isTTY: boolean): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = { isTTY, write: (chunk: string) => written.push(chunk) } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

describe('the demo-data progress bar', () => {
  test('draws on a terminal, once per percent, and ends the line when done', () => {
    const { stream, written } = fakeStream(true);
    const update = progressBar(stream, 'students');
    update(0, 200);
    update(1, 200);
    update(2, 200);
    update(200, 200);
    expect(written).toEqual([
      `\rstudents [${' '.repeat(30)}] 0% (0/200)`,
      `\rstudents [${' '.repeat(30)}] 1% (2/200)`,
      `\rstudents [${'#'.repeat(30)}] 100% (200/200)`,
      '\n',
    ]);
  });

  test('is silent when the output is not a terminal', () => {
    const { stream, written } = fakeStream(false);
    progressBar(stream, 'students')(5, 10);
    expect(written).toEqual([]);
  });
});
