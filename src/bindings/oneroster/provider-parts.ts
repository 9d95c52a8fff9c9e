import type { CallerRegistry } from '../../access/caller-registry';
import type { TokenSigner } from '../../access/oauth-tokens';
import type { AuditTrail } from '../../audit/audit-trail';
import type { Store } from '../../store/open-store';

/** What the OneRoster provider's endpoints are served from: the callers, the token key, the store, the trail. */
export interface ProviderParts {
  readonly callers: CallerRegistry;
  readonly tokens: TokenSigner;
  readonly tokenTtlSeconds: number;
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly clock: () => Date;
}
