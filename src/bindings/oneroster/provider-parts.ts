import type { CallerRegistry } from '../../access/caller-registry';
import type { TokenSigner } from '../../access/oauth-tokens';
import type { AuditTrail } from '../../audit/audit-trail';
import type { ExportedRows } from '../../provider/exported-rows';
import type { WriteParts } from '../../provider/result-writes';
import type { Store } from '../../store/open-store';
import type { PublicAddress } from '../../wire/base-url';

/** What the OneRoster provider's endpoints are served from: the callers, the token key, the store, the trail. */
export interface ProviderParts extends Omit<WriteParts, 'changed'> {
  readonly callers: CallerRegistry;
  readonly tokens: TokenSigner;
  readonly tokenTtlSeconds: number;
  /** Requests to the REST paths a caller may make a minute. */
  readonly requestsPerMinute: number;
  /** Days a deleted record is answered to a delta consumer as tobedeleted (ONEROSTER_TOMBSTONE_DAYS). */
  readonly tombstoneDays: number;
  readonly store: Store;
  /** The school's records as the export gives them now (provider/exported-rows.ts). */
  readonly exportedRows: ExportedRows;
  readonly audit: AuditTrail;
  /** Where the service is reached, for the paging links. */
  readonly address: PublicAddress;
  readonly clock: () => Date;
}
