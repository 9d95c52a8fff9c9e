import { extname } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts a worker thread from a file of this code: the built JavaScript as it is, and TypeScript
 * (tests, `npm run dev`) through tsx, since a worker does not inherit the loader of its parent.
 */
export function startThread(file: string, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  if (extname(file) !== '.ts') return new Worker(file, { workerData, resourceLimits });
  const code = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(file)});`;
  return new Worker(code, { eval: true, workerData, resourceLimits });
}
