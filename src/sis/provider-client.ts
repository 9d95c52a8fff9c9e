import { counted } from '../lib/counted';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SisSettings } from '../config/sis-settings';
import { parseRetryAfter, retryDelayMs } from '../delivery/backoff';
import { boundedFetch, type BoundedResponse, FetchFailure } from '../lib/bounded-fetch';
import type { ProviderAuth } from './provider-auth';
import { SyncFailure } from './sync-failure';

/**
 * GETs of the provider's pages with the faults a SIS shows: 429 and 503 wait for Retry-After (up
 * to SIS_MAX_RETRY_AFTER_S; a longer wait fails the sync rather than hold it for hours), other
 * 5xx, timeouts and broken connections are tried again after a backoff, SIS_RETRIES times; a 401
 * fetches a new token once. An answer over SIS_MAX_RESPONSE_BYTES, a redirect or another 4xx
 * fails at once. Messages name the path and the answer, never a credential.
 */
export interface ProviderPage {
  /** The answer's body, as it came: parsed where its records are written (page-records.ts). */
  readonly text: string;
  readonly headers: Headers;
}

export class ProviderClient {
  /** Requests sent, tries included, for the figures. */
  requests = 0;

  constructor(
    private readonly settings: SisSettings,
    private readonly auth: ProviderAuth,
    private readonly wait: (ms: number) => Promise<unknown> = sleep,
  ) {}

  async getPage(url: string): Promise<ProviderPage> {
    const where = new URL(url).pathname;
    let reason = '';
    for (let attempt = 1; attempt <= this.settings.retries + 1; attempt += 1) {
      let response: BoundedResponse;
      let authorization = '';
      try {
        this.requests += 1;
        authorization = await this.auth.authorization(url);
        response = await boundedFetch(
          url,
          { method: 'GET', headers: { Authorization: authorization, Accept: 'application/json' } },
          { timeoutMs: this.settings.timeoutMs, maxResponseBytes: this.settings.maxResponseBytes },
        );
      } catch (error) {
        if (!(error instanceof FetchFailure)) throw error;
        if (error.kind === 'too-large') throw new SyncFailure(`${where}: answer refused, ${error.message}`);
        if (error.kind === 'redirect') throw new SyncFailure(`${where}: ${error.message}`);
        reason = error.message;
        await this.backoff(attempt, undefined);
        continue;
      }
      const { status } = response;
      if (status === 200) return { text: response.body, headers: response.headers };
      if (status === 401 && this.auth.refused(authorization)) {
        reason = 'the token was refused';
        continue;
      }
      if (status === 429 || status === 503) {
        const asked = parseRetryAfter(response.headers.get('retry-after'), new Date());
        if (asked !== undefined && asked > this.settings.maxRetryAfterMs) {
          throw new SyncFailure(`${where}: answered ${status}, asking to wait ${Math.round(asked / 1000)} s`);
        }
        reason = `answered ${status}`;
        await this.backoff(attempt, asked);
        continue;
      }
      if (status >= 500) {
        reason = `answered ${status}`;
        await this.backoff(attempt, undefined);
        continue;
      }
      throw new SyncFailure(
        `${where}: answered ${status}${status === 401 || status === 403 ? ' (credentials refused)' : ''}`,
      );
    }
    throw new SyncFailure(`${where}: ${reason} after ${counted(this.settings.retries + 1, 'try', 'tries')}`);
  }

  private async backoff(attempt: number, retryAfterMs: number | undefined): Promise<void> {
    if (attempt > this.settings.retries) return;
    const { backoffBaseMs, maxRetryAfterMs } = this.settings;
    await this.wait(Math.min(retryDelayMs(attempt, backoffBaseMs, backoffBaseMs * 32, retryAfterMs), maxRetryAfterMs));
  }
}
