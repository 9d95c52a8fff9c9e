import { setTimeout as delay } from 'node:timers/promises';
import type { DeliveryConfig } from '../config/delivery-settings';
import { log } from '../lib/log';
import type { PayloadSealer } from '../lib/payload-sealer';
import type { Store } from '../store/open-store';
import type { ClaimedMessage } from '../store/queries/outbox';
import type { OutboxChannel } from '../store/schema';
import type { Gateway, GatewayOutcome } from './gateway';
import { type RecordedState, recordOutcome } from './record-outcome';

/** What a worker sends a claimed message with. */
export interface SendingParts {
  readonly store: Store;
  readonly settings: DeliveryConfig;
  readonly sealer: PayloadSealer;
  /** The name the worker claims messages under. */
  readonly owner: string;
  readonly gateways: ReadonlyMap<OutboxChannel, Gateway>;
  readonly now: () => Date;
  /** Aborted when the worker's stopping deadline has passed: sends still waiting are abandoned. */
  readonly stopping: AbortSignal;
  /** Told of each attempt to hand a message to its gateway, with what the answer was taken for. */
  readonly attempted?: (channel: OutboxChannel, result: GatewayOutcome['kind']) => void;
  /** The district school whose outbox this is, which the worker's log lines name; none at the deployment's own. */
  readonly school?: string;
}

/** A phone number or token in a log line: enough to tell messages apart, not enough to use. */
function masked(recipient: string): string {
  return recipient.length <= 4 ? '****' : `…${recipient.slice(-4)}`;
}

/**
 * Records what became of a send, trying again while the store does not answer (a restart, a
 * failover): the gateway has had the message, and an outcome left unrecorded would have it sent
 * again once the lease runs out. It gives up when the lease is about to run out (another worker
 * may then take the message over, and the record would not count) or at the stopping deadline.
 */
async function recordWhileLeased(
  parts: SendingParts,
  message: ClaimedMessage,
  outcome: GatewayOutcome,
  leaseEndsAt: number,
): Promise<RecordedState> {
  const { settings, stopping } = parts;
  for (;;) {
    try {
      return await recordOutcome(parts.store, parts.owner, message, outcome, settings, parts.now());
    } catch (error) {
      if (Date.now() + settings.pollMs >= leaseEndsAt || stopping.aborted) throw error;
      log.warn('delivery worker: could not record an outcome; trying again', {
        school: parts.school,
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
      });
      await delay(settings.pollMs, undefined, { signal: stopping }).catch(() => undefined);
    }
  }
}

/** The gateway's answer to a send, or the failure of a payload that cannot be opened. */
async function send(parts: SendingParts, message: ClaimedMessage): Promise<GatewayOutcome> {
  try {
    const content: unknown = JSON.parse(parts.sealer.open(message.payload));
    return await (parts.gateways.get(message.channel) as Gateway).send(message, content, parts.stopping);
  } catch (error) {
    return {
      kind: 'failed',
      error:
        'the payload cannot be opened (was OUTBOX_KEY changed?): ' +
        `${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function logDelivery(
  message: ClaimedMessage,
  state: RecordedState,
  outcome: GatewayOutcome,
  school: string | undefined,
): void {
  const fields = {
    school,
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

/** Sends one claimed message through its channel's gateway and records the outcome while its lease holds. */
export async function deliverMessage(parts: SendingParts, message: ClaimedMessage, leaseEndsAt: number): Promise<void> {
  const outcome = await send(parts, message);
  // Abandoned by stop(): nothing is recorded, and the message is given back with the others held.
  if (parts.stopping.aborted && outcome.kind !== 'sent') return;
  parts.attempted?.(message.channel, outcome.kind);
  const state = await recordWhileLeased(parts, message, outcome, leaseEndsAt);
  logDelivery(message, state, outcome, parts.school);
}
