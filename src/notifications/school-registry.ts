import { timingSafeEqual } from 'node:crypto';
import { OperationError, type OperationContext } from '../operations/operation';
import { normaliseBaseUrl } from './school-address';

export type SchoolRoute = { readonly kind: 'own' } | { readonly kind: 'partner'; readonly baseUrl: string };

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Where a call for the school at baseUrlSchool runs: here, for this deployment's own school, or
 * at a registered partner's instance. The address is only ever looked up, never called as given:
 * an address that is not registered is a fault, so baseUrlSchool cannot make the service reach
 * anywhere else. A call a partner forwarded here must carry the shared secret and be for this
 * school (no second hop).
 */
export function routeForSchool(baseUrlSchool: string | null, context: OperationContext): SchoolRoute {
  const { federationSecret, partnerSchools } = context.config.notifications;
  const forwarded = context.federationCredential !== undefined;
  if (forwarded && (!federationSecret || !sameSecret(context.federationCredential ?? '', federationSecret))) {
    throw new OperationError('rule', 'The federation credential of this forwarded call is not accepted.');
  }
  const address = baseUrlSchool === null ? undefined : normaliseBaseUrl(baseUrlSchool);
  if (address !== undefined && address === context.ownSchoolUrl()) return { kind: 'own' };
  if (address !== undefined && partnerSchools.includes(address)) {
    if (forwarded) throw new OperationError('rule', 'A forwarded call must be for the school that receives it.');
    return { kind: 'partner', baseUrl: address };
  }
  throw new OperationError('rule', `baseUrlSchool is not a registered school: ${JSON.stringify(baseUrlSchool ?? '')}.`);
}
