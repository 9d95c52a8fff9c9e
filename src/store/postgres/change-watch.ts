import { Client } from 'pg';
import { log } from '../../lib/log';
import type { ChangeWatch } from '../reference-data';

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

/**
 * Listens on a PostgreSQL channel on a connection of its own, and calls `onChange` for each
 * notification, and also whenever announcements may have been missed: when the connection is lost
 * (it is then remade, after a wait that doubles up to 30 s) and when listening starts again.
 * `watching` is true only while listening, so that the copy it guards checks the store instead.
 */
export function watchPostgresChannel(connectionString: string, channel: string, onChange: () => void): ChangeWatch {
  let client: Client | undefined;
  let watching = false;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retry: NodeJS.Timeout | undefined;

  const lost = (reason: string) => {
    if (!client) return;
    const gone = client;
    client = undefined;
    watching = false;
    onChange();
    gone.end().catch(() => undefined);
    if (closed) return;
    log.warn('the store change watch lost its connection; it reconnects', { reason, retryMs });
    retry = setTimeout(connect, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  };

  function connect(): void {
    const connecting = new Client({ connectionString });
    client = connecting;
    connecting.on('notification', (message) => {
      if (message.channel === channel) onChange();
    });
    connecting.on('error', (error) => lost(error.message));
    connecting.on('end', () => lost('connection ended'));
    connecting
      .connect()
      .then(() => connecting.query(`LISTEN ${channel}`))
      .then(() => {
        if (client !== connecting) return;
        // What changed while nobody listened is unknown: the copy is read afresh.
        onChange();
        watching = true;
        retryMs = FIRST_RETRY_MS;
      })
      .catch((error: unknown) => {
        if (client === connecting) lost(error instanceof Error ? error.message : String(error));
      });
  }

  connect();
  return {
    get watching() {
      return watching;
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = undefined;
      watching = false;
      await open?.end().catch(() => undefined);
    },
  };
}
