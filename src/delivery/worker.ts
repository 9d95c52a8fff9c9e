import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { log } from '../lib/log';
import { warnOncePerNode } from '../lib/node-warnings';
import type { Store } from '../store/open-store';
import type { OutboxChannel } from '../store/schema';
import type { DeliveryConfig } from '../config/delivery-settings';
import { formatCounts } from './delivery-counts';
import { fcmGateway } from './fcm-gateway';
import type { Gateway, GatewayOutcome } from './gateway';
import type { PayloadSealer } from '../lib/payload-sealer';
import { type ClaimedMessage, claimDueMessages, outboxCounts, releaseLeases } from '../store/queries/outbox';
import { type RecordedState, recordOutcome } from './record-outcome';
import { smsGateway } from './sms-gateway';

export interface DeliveryWorker {
  /** Look for due messages now instead of at the next poll. */
  wake(): void;
  /**
   * Stops claiming, and resolves once the sends in flight are recorded. Sends still waiting for
   * their gateway at `deadline` (a Date.now() time) are abandoned; what the worker still holds
   * then is given back, to be claimed at once by another worker rather than when its lease ends.
   */
  stop(deadline?: number): Promise<void>;
}

export interface WorkerOptions {
  readonly now?: () => Date;
  /** How often the counts by state are logged when they changed. */
  readonly countsLogMs?: number;
  /** Told of each attempt to hand a message to its gateway, with what the answer was taken for. */
  readonly attempted?: (channel: OutboxChannel, result: GatewayOutcome['kind']) => void;
}

function gatewaysFor(settings: DeliveryConfig, now: () => Date): Map<OutboxChannel, Gateway> {
  const gateways = new Map<OutboxChannel, Gateway>();
  if (settings.push.url)
    gateways.set('push', fcmGateway(settings.push.url, settings.push.token, settings.gatewayTimeoutMs, now));
  const smsUrl = settings.sms.url;
  if (smsUrl) gateways.set('sms', smsGateway({ ...settings.sms, url: smsUrl }, settings.gatewayTimeoutMs, now));
  return gateways;
}

/** Claims the next batch of due messages under a lease of `leaseMs` from now. */
function claimDue(
  store: Store,
  owner: string,
  channels: readonly OutboxChannel[],
  now: Date,
  settings: DeliveryConfig,
): Promise<ClaimedMessage[]> {
  const leaseUntil = new Date(now.getTime() + settings.leaseMs).toISOString();
  return claimDueMessages(store, owner, channels, now.toISOString(), leaseUntil, settings.batch);
}

/** A phone number or token in a log line: enough to tell messages apart, not enough to use. */
function masked(recipient: string): string {
  return recipient.length <= 4 ? '****' : `…${recipient.slice(-4)}`;
}

/**
 * Delivers the outbox: claims due messages under a lease, sends each through its channel's
 * gateway, and records the outcome. Channels without a configured gateway are left queued (and
 * said so once in the log); nothing is dropped for want of a gateway.
 */
export function startDeliveryWorker(
  store: Store,
  settings: DeliveryConfig,
  sealer: PayloadSealer,
  options: WorkerOptions = {},
): DeliveryWorker {
  const now = options.now ?? (() => new Date());
  const owner = `worker-${randomUUID()}`;
  const gateways = gatewaysFor(settings, now);
  const channels = [...gateways.keys()];
  for (const channel of ['sms', 'push'] as const) {
    if (!gateways.has(channel))
      warnOncePerNode('no gateway configured: messages of this channel stay queued', {
        channel,
        setting: channel === 'sms' ? 'SMS_GATEWAY_URL' : 'PUSH_GATEWAY_URL',
      });
  }
  let running = true;
  const stopping = new AbortController();
  let wakeUp: (() => void) | undefined;
  let pendingWake = false;
  let lastCounts = '';
  let lastCountsAt = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pendingWake || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  /**
   * Records what became of a send, trying again while the store does not answer (a restart, a
   * failover): the gateway has had the message, and an outcome left unrecorded would have it sent
   * again once the lease runs out. It gives up when the lease is about to run out (another worker
   * may then take the message over, and the record would not count) or at the stopping deadline.
   */
  async function recordWhileLeased(
    message: ClaimedMessage,
    outcome: GatewayOutcome,
    leaseEndsAt: number,
  ): Promise<RecordedState> {
    for (;;) {
      try {
        return await recordOutcome(store, owner, message, outcome, settings, now());
      } catch (error) {
        if (Date.now() + settings.pollMs >= leaseEndsAt || stopping.signal.aborted) throw error;
        log.warn('delivery worker: could not record an outcome; trying again', {
          id: message.id,
          error: error instanceof Error ? error.message : String(error),
        });
        await delay(settings.pollMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      }
    }
  }

  async function deliver(message: ClaimedMessage, leaseEndsAt: number): Promise<void> {
    let outcome: GatewayOutcome;
    try {
      const content: unknown = JSON.parse(sealer.open(message.payload));
      outcome = await (gateways.get(message.channel) as Gateway).send(message, content, stopping.signal);
    } catch (error) {
      outcome = {
        kind: 'failed',
        error:
          'the payload cannot be opened (was OUTBOX_KEY changed?): ' +
          `${error instanceof Error ? error.message : String(error)}`,
      };
    }
    // Abandoned by stop(): nothing is recorded, and the message is given back with the others held.
    if (stopping.signal.aborted && outcome.kind !== 'sent') return;
    options.attempted?.(message.channel, outcome.kind);
    const state = await recordWhileLeased(message, outcome, leaseEndsAt);
    const fields = {
      id: message.id,
      channel: message.channel,
      recipient: masked(message.recipient),
      state,
      attempts: message.attempts + 1,
    };
    if (state === 'sent') log.info('message delivered', fields);
    else
      log.warn(state === 'failed' ? 'message failed' : 'message will be retried', {
        ...fields,
        error: outcome.kind === 'sent' ? undefined : outcome.error,
      });
  }

  /** Once a minute or so: the counts in the log when they changed. */
  async function housekeeping(): Promise<void> {
    if (Date.now() - lastCountsAt < (options.countsLogMs ?? 60_000)) return;
    lastCountsAt = Date.now();
    const counts = formatCounts(await outboxCounts(store));
    if (counts !== lastCounts) log.info('outbox', { counts });
    lastCounts = counts;
  }

  const loop = (async () => {
    while (running) {
      pendingWake = false;
      let claimed: ClaimedMessage[] = [];
      try {
        const leaseEndsAt = Date.now() + settings.leaseMs;
        claimed = await claimDue(store, owner, channels, now(), settings);
        await Promise.all(claimed.map((message) => deliver(message, leaseEndsAt)));
        await housekeeping();
      } catch (error) {
        log.error('delivery worker: store failure; trying again at the next poll', {
          error: error instanceof Error ? error.message : String(error),
        });
        claimed = [];
      }
      if (claimed.length < settings.batch) await sleep(settings.pollMs);
    }
  })();

  return {
    wake() {
      pendingWake = true;
      wakeUp?.();
    },
    async stop(deadline) {
      running = false;
      wakeUp?.();
      const abandon =
        deadline === undefined ? undefined : setTimeout(() => stopping.abort(), Math.max(0, deadline - Date.now()));
      await loop;
      clearTimeout(abandon);
      try {
        const released = await releaseLeases(store, owner);
        if (released > 0) log.info('delivery worker gave back the messages it held', { messages: released });
      } catch (error) {
        log.error('delivery worker: could not give back its messages; their leases will run out', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
  };
}
