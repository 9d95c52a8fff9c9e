import { randomUUID } from 'node:crypto';
import { log } from '../lib/log';
import { warnOncePerNode } from '../lib/node-warnings';
import type { Store } from '../store/open-store';
import type { OutboxChannel } from '../store/schema';
import type { DeliveryConfig } from '../config/delivery-settings';
import { formatCounts } from './delivery-counts';
import { fcmGateway } from './fcm-gateway';
import { deliverMessage, type SendingParts } from './deliver-message';
import type { Gateway, GatewayOutcome } from './gateway';
import type { PayloadSealer } from '../lib/payload-sealer';
import { type ClaimedMessage, claimDueMessages, outboxCounts, releaseLeases } from '../store/queries/outbox';
import { PollPause } from './poll-pause';
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
  /** The district school whose outbox this is, which the worker's log lines name. */
  readonly school?: string;
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

/** Says once per node which channels have no gateway: their messages stay queued, none is dropped. */
function warnOfChannelsWithoutGateway(gateways: ReadonlyMap<OutboxChannel, Gateway>): void {
  for (const channel of ['sms', 'push'] as const) {
    if (!gateways.has(channel))
      warnOncePerNode('no gateway configured: messages of this channel stay queued', {
        channel,
        setting: channel === 'sms' ? 'SMS_GATEWAY_URL' : 'PUSH_GATEWAY_URL',
      });
  }
}

/** The outbox's counts by state in the log, once a minute or so and only when they changed. */
class CountsLog {
  private last = '';
  private lastAt = 0;

  constructor(
    private readonly store: Store,
    private readonly everyMs: number,
  ) {}

  async maybeWrite(): Promise<void> {
    if (Date.now() - this.lastAt < this.everyMs) return;
    this.lastAt = Date.now();
    const counts = formatCounts(await outboxCounts(this.store));
    if (counts !== this.last) log.info('outbox', { counts });
    this.last = counts;
  }
}

/** One round: claims a batch and delivers it; answers how many messages it claimed (none when the store failed). */
async function deliverDue(parts: SendingParts, channels: readonly OutboxChannel[], counts: CountsLog): Promise<number> {
  try {
    const leaseEndsAt = Date.now() + parts.settings.leaseMs;
    const claimed = await claimDue(parts.store, parts.owner, channels, parts.now(), parts.settings);
    await Promise.all(claimed.map((message) => deliverMessage(parts, message, leaseEndsAt)));
    await counts.maybeWrite();
    return claimed.length;
  } catch (error) {
    log.error('delivery worker: store failure; trying again at the next poll', {
      school: parts.school,
      error: error instanceof Error ? error.message : String(error),
    });
    return 0;
  }
}

/** Gives back the messages a stopping worker still holds, to be claimed at once rather than when their lease ends. */
async function giveBack({ store, owner, school }: SendingParts): Promise<void> {
  try {
    const released = await releaseLeases(store, owner);
    if (released > 0) log.info('delivery worker gave back the messages it held', { school, messages: released });
  } catch (error) {
    log.error('delivery worker: could not give back its messages; their leases will run out', {
      school,
      error: error instanceof Error ? error.message : String(error),
    });
  }
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
  warnOfChannelsWithoutGateway(gateways);
  let running = true;
  const stopping = new AbortController();
  const pause = new PollPause();
  const parts: SendingParts = {
    store,
    settings,
    sealer,
    owner,
    gateways,
    now,
    stopping: stopping.signal,
    attempted: options.attempted,
    school: options.school,
  };
  const counts = new CountsLog(store, options.countsLogMs ?? 60_000);
  const loop = (async () => {
    while (running) {
      pause.roundBegins();
      const claimed = await deliverDue(parts, channels, counts);
      // A full batch may have more behind it: the next round claims at once.
      if (claimed < settings.batch) await pause.wait(settings.pollMs);
    }
  })();

  return {
    wake: () => pause.wake(),
    async stop(deadline) {
      running = false;
      pause.end();
      const abandon =
        deadline === undefined ? undefined : setTimeout(() => stopping.abort(), Math.max(0, deadline - Date.now()));
      await loop;
      clearTimeout(abandon);
      await giveBack(parts);
    },
  };
}
