import { Client } from 'pg';

/**
 * What this process's pg clients send to PostgreSQL while `work` runs: each query's first
 * argument (its text, or its config with a name), counted where pg sends it, so every round trip
 * of a service running in the test's process is seen.
 */
export async function statementsSentDuring(work: () => Promise<unknown>): Promise<unknown[]> {
  const sent: unknown[] = [];
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    sent.push(args[0]);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    Client.prototype.query = query;
  }
  return sent;
}
