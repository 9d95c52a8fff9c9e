import cluster, { type Worker } from 'node:cluster';
import type { ProcessSnapshot } from '../telemetry/process-telemetry';

/**
 * The figures of every worker, for whichever worker is asked for /metrics or /status. With
 * WORKERS=n the supervisor does not serve the port (node:cluster hands each connection to a
 * worker), so the worker that is asked asks the supervisor, which asks every serving worker (the
 * one asking included) for its snapshot and hands the lot back. The supervisor only relays plain
 * data: it stays a small process, and the adding up is done by the worker that answers.
 */

/** What the figures of a service are made from: a snapshot per worker that answered in time. */
export interface GatheredFigures {
  readonly snapshots: readonly ProcessSnapshot[];
  /** How many workers were serving when they were asked; more than `snapshots` when some did not answer. */
  readonly workers: number;
  /** When the service (its supervisor, or the single process) started. */
  readonly serviceStartedAt: string;
}

type FiguresMessage =
  | { readonly kind: 'figures-wanted'; readonly id: number }
  | { readonly kind: 'figures-asked'; readonly id: number }
  | { readonly kind: 'figures-given'; readonly id: number; readonly snapshot: ProcessSnapshot }
  | { readonly kind: 'figures-gathered'; readonly id: number; readonly figures: GatheredFigures };

/** How long the supervisor waits for the workers' snapshots before it hands back those it has. */
const WORKERS_ANSWER_MS = 2_000;
/** How long a worker waits for the supervisor; past it, it answers with its own figures alone. */
const SUPERVISOR_ANSWER_MS = 5_000;

const serviceStartedAt = new Date().toISOString();
let nextRequest = 0;

function isFiguresMessage(message: unknown): message is FiguresMessage {
  const kind = (message as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && kind.startsWith('figures-');
}

/** In a worker: answers the supervisor's requests for this process's snapshot. Returns the way to stop. */
export function answerFigureRequests(snapshot: () => Promise<ProcessSnapshot>): () => void {
  if (!cluster.isWorker) return () => undefined;
  const answer = (message: unknown) => {
    if (!isFiguresMessage(message) || message.kind !== 'figures-asked') return;
    snapshot().then(
      (own) => process.send?.({ kind: 'figures-given', id: message.id, snapshot: own } satisfies FiguresMessage),
      () => undefined,
    );
  };
  process.on('message', answer);
  return () => process.off('message', answer);
}

/** The figures of every worker of the service; of this process alone when it is the only one. */
export async function gatherFigures(own: () => Promise<ProcessSnapshot>): Promise<GatheredFigures> {
  const alone = async (): Promise<GatheredFigures> => ({ snapshots: [await own()], workers: 1, serviceStartedAt });
  if (!cluster.isWorker || !process.send) return alone();
  nextRequest += 1;
  const id = nextRequest;
  const gathered = new Promise<GatheredFigures | undefined>((resolve) => {
    const timer = setTimeout(() => finish(undefined), SUPERVISOR_ANSWER_MS);
    const listen = (message: unknown) => {
      if (isFiguresMessage(message) && message.kind === 'figures-gathered' && message.id === id) {
        finish(message.figures);
      }
    };
    const finish = (figures: GatheredFigures | undefined) => {
      clearTimeout(timer);
      process.off('message', listen);
      resolve(figures);
    };
    process.on('message', listen);
  });
  process.send({ kind: 'figures-wanted', id } satisfies FiguresMessage);
  return (await gathered) ?? alone();
}

/** In the supervisor: relays requests for figures between the serving workers. */
export function relayFigures(servingWorkers: () => readonly Worker[]): void {
  let nextGathering = 0;
  const gatherings = new Map<number, { readonly answered: ProcessSnapshot[]; readonly done: () => void }>();

  cluster.on('message', (worker, message: unknown) => {
    if (!isFiguresMessage(message)) return;
    if (message.kind === 'figures-given') {
      const gathering = gatherings.get(message.id);
      gathering?.answered.push(message.snapshot);
      gathering?.done();
      return;
    }
    if (message.kind !== 'figures-wanted') return;
    const asked = servingWorkers().filter((serving) => serving.isConnected());
    nextGathering += 1;
    const gatheringId = nextGathering;
    const answered: ProcessSnapshot[] = [];
    const handBack = () => {
      clearTimeout(timer);
      gatherings.delete(gatheringId);
      const figures: GatheredFigures = { snapshots: answered, workers: asked.length, serviceStartedAt };
      if (worker.isConnected())
        worker.send({ kind: 'figures-gathered', id: message.id, figures } satisfies FiguresMessage);
    };
    const timer = setTimeout(handBack, WORKERS_ANSWER_MS);
    gatherings.set(gatheringId, {
      answered,
      done: () => {
        if (answered.length >= asked.length) handBack();
      },
    });
    for (const serving of asked) serving.send({ kind: 'figures-asked', id: gatheringId } satisfies FiguresMessage);
    if (asked.length === 0) handBack();
  });
}
