import type { IncomingMessage } from 'node:http';
import type { AccessSettings } from '../config/access-settings';
import { clientAddress } from '../lib/networks';

/** Whether the request comes from LOCAL_NETWORKS (this machine unless set), seen through TRUSTED_PROXIES. */
export function isLocalCaller(request: IncomingMessage, access: AccessSettings): boolean {
  const address = clientAddress(
    request.socket.remoteAddress ?? '',
    request.headers['x-forwarded-for'],
    access.trustedProxies,
  );
  return access.localNetworks.contains(address);
}
