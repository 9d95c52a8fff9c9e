import { timingSafeEqual } from 'node:crypto';
import type { NotificationConfig } from '../config/notification-settings';
import { RuleViolation } from '../lib/rule-violation';
import { normaliseBaseUrl } from '../lib/school-address';
import type { SiblingSchool, SiblingSchools } from './sibling-schools';

export type SchoolRoute =
  | { readonly kind: 'own' }
  /** A partner's instance, or (with `sibling`) a school of this deployment, served in this process. */
  | { readonly kind: 'partner'; readonly baseUrl: string; readonly sibling?: SiblingSchool };

/** What the registry needs to know of the call it routes. */
export interface SchoolCall {
  /** The base URL the call reached this service at: PUBLIC_BASE_URL, or the host the caller used. */
  readonly requestBaseUrl: string;
  /** The secret a partner's instance sends with a call it forwards here; undefined for a direct call. */
  readonly federationCredential: string | undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** This deployment's own school: SCHOOL_BASE_URL, else the address the call reached. */
function ownSchoolUrl(settings: NotificationConfig, call: SchoolCall): string {
  return settings.schoolBaseUrl ?? normaliseBaseUrl(call.requestBaseUrl) ?? '';
}

/**
 * Where a call for the school at baseUrlSchool runs: here, for this deployment's own school; at
 * another school of this deployment (`siblings`), in this process, with the checks a partner's
 * call passes; or at a registered partner's instance. The address is only ever looked up, never
 * called as given: an address that is not registered is refused, so baseUrlSchool cannot make the
 * service reach anywhere else. A call forwarded here must carry the shared secret and be for this
 * school (no second hop).
 */
export function routeForSchool(
  baseUrlSchool: string | null,
  settings: NotificationConfig,
  call: SchoolCall,
  siblings?: SiblingSchools,
): SchoolRoute {
  const { federationSecret, partnerSchools } = settings;
  const forwarded = call.federationCredential !== undefined;
  if (forwarded && (!federationSecret || !sameSecret(call.federationCredential ?? '', federationSecret))) {
    throw new RuleViolation('The federation credential of this forwarded call is not accepted.');
  }
  const address = baseUrlSchool === null ? undefined : normaliseBaseUrl(baseUrlSchool);
  if (address !== undefined && address === ownSchoolUrl(settings, call)) return { kind: 'own' };
  const sibling = address === undefined ? undefined : siblings?.find(address, call.requestBaseUrl);
  if (address !== undefined && (sibling || partnerSchools.includes(address))) {
    if (forwarded) throw new RuleViolation('A forwarded call must be for the school that receives it.');
    return { kind: 'partner', baseUrl: sibling?.baseUrl ?? address, sibling };
  }
  throw new RuleViolation(`baseUrlSchool is not a registered school: ${JSON.stringify(baseUrlSchool ?? '')}.`);
}
