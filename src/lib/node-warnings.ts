import cluster from 'node:cluster';
import { log } from './log';

/** Sent by a worker to its supervisor, which writes each distinct warning once for the node. */
export interface WarningMessage {
  readonly kind: 'warning';
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

const written = new Set<string>();

/** Writes a warning unless this process wrote the same one (message and fields) before. */
export function warnOnce(message: string, fields: Record<string, unknown> = {}): void {
  const key = `${message}\u0000${JSON.stringify(fields)}`;
  if (written.has(key)) return;
  written.add(key);
  log.warn(message, fields);
}

/**
 * A warning about the node's settings or state, which every worker would otherwise repeat (a
 * gateway not configured, a key that does not open a secret): a worker hands it to its
 * supervisor, which writes it once; a process of its own writes it once.
 */
export function warnOncePerNode(message: string, fields: Record<string, unknown> = {}): void {
  if (cluster.isWorker && process.send) {
    process.send({ kind: 'warning', message, fields } satisfies WarningMessage);
    return;
  }
  warnOnce(message, fields);
}
