import { flushLog } from '../../src/lib/log';

/**
 * The log lines `work` writes, taken from stderr while it runs (and until it settles, for work
 * that returns a promise); the log's gathered lines are written out before stderr is given back.
 */
export async function capturedLog(work: () => unknown): Promise<string[]> {
  const chunks: string[] = [];
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    await work();
    flushLog();
  } finally {
    write.mockRestore();
  }
  return chunks.join('').split('\n').filter(Boolean);
}
