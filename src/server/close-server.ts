import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * What a stopping server does with keep-alive connections that are idle: close them at once (a
 * test, a tool), or leave them to the keep-alive time-out their clients were told of (a signal).
 */
export type IdleConnections = 'close-now' | 'let-expire';

/**
 * Stops the server taking connections and resolves once all of its connections have ended; those
 * still open at `deadline` (a Date.now() time) are cut.
 *
 * http.Server#close also closes every idle keep-alive connection at once, and a client that has
 * just sent its next request on one loses that request: neither side can tell whether it was
 * read. With 'let-expire' the listening socket alone is closed (net.Server#close). A connection
 * then ends after its next response, which says Connection: close (see RequestTracking), or when
 * the keep-alive time-out announced in its responses' Keep-Alive header runs out: clients give up
 * an idle connection before that time-out, so none sends a request on one as it is being closed.
 */
export function closeServer(server: Server, deadline: number, idle: IdleConnections): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), Math.max(0, deadline - Date.now()));
    const closed = () => {
      clearTimeout(cut);
      resolve();
    };
    if (!server.listening) {
      server.closeAllConnections();
      closed();
      return;
    }
    if (idle === 'close-now') server.close(closed);
    else NetServer.prototype.close.call(server, closed);
  });
}
