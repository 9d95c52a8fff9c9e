import cluster, { type Worker } from 'node:cluster';
import { settingsFileFields } from './config/env-file';
import type { OperatorSettings } from './config/operator-settings';
import { EXIT_SETTING_TO_FIX } from './config/readers';
import { log } from './lib/log';
import { type WarningMessage, warnOnce } from './lib/node-warnings';
import { relayFigures } from './status/cluster-figures';

/**
 * WORKERS=n: n processes serve the one port, node:cluster handing each new connection to the next
 * of them, so that a machine's cores all answer calls. A process runs one event loop on one core;
 * with four clients at once, a call to a busy single process waits for the calls ahead of it, so a
 * second core halves the wait as well as doubling what the service can take.
 *
 * The processes share nothing but the store, which every part of the service already expects to
 * share with other instances (rate limits are counted in the store, the outbox is claimed with
 * leases). The first worker starts alone, so that it alone migrates the store, fills a new one
 * with the demo school and creates the outbox key; the others start once it listens. A worker
 * that dies is replaced; if workers keep dying, the service stops instead of looping.
 *
 * SIGHUP restarts the workers one at a time without losing a call: a new worker is started and
 * once it listens, an old one is drained (SIGTERM: it takes no new connection, finishes its calls
 * and exits), then the next. Workers start from the files on disk, so this is also how an upgrade
 * is rolled out on one machine (`systemctl reload`). SIGTERM drains every worker, then exits 0.
 */

/** Sent by a worker to the supervisor once its server listens. */
export interface ListeningMessage {
  readonly kind: 'listening';
  readonly url: string;
  readonly addresses: readonly string[];
}

/** A worker that dies sooner than this after starting counts towards giving up. */
const EARLY_DEATH_MS = 30_000;
/** So many early deaths in a row stop the service: something is wrong that restarting will not mend. */
const EARLY_DEATHS_TO_GIVE_UP = 5;
const RESTART_DELAY_MS = 1_000;
/** Past the workers' own drain deadline, the supervisor kills those still running. */
const STOP_MARGIN_MS = 5_000;

/** Tells the supervisor this worker is serving; nothing when the process is not a cluster worker. */
export function reportListening(url: string, addresses: readonly string[]): void {
  if (cluster.isWorker && process.send) process.send({ kind: 'listening', url, addresses } satisfies ListeningMessage);
}

/** Runs in the primary process: starts the workers, replaces dead ones, restarts them on SIGHUP, stops them. */
export function superviseWorkers(count: number, operator: OperatorSettings, settings: Record<string, unknown>): void {
  let stopping = false;
  let restarting = false;
  let earlyDeaths = 0;
  const startedAt = new Map<Worker, number>();
  /** Workers that listen and are not being drained: those that serve, and are asked for their figures. */
  const serving = new Set<Worker>();
  /** Workers being drained on purpose: their exit is no death to replace. */
  const retiring = new Set<Worker>();
  const live = () =>
    Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => worker !== undefined && !worker.isDead() && !retiring.has(worker),
    );

  const addressesOf = new Map<Worker, readonly string[]>();
  const fork = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork();
      startedAt.set(worker, Date.now());
      const onExit = (code: number | null) =>
        reject(new Error(`worker ${worker.process.pid} exited with ${code} before listening`));
      worker.once('exit', onExit);
      worker.on('message', (message: ListeningMessage | WarningMessage) => {
        if (message?.kind === 'warning') warnOnce(message.message, message.fields);
        if (message?.kind !== 'listening') return;
        worker.off('exit', onExit);
        serving.add(worker);
        addressesOf.set(worker, message.addresses);
        resolve(worker);
      });
    });

  /** Drains one worker and resolves once it has exited. */
  const retire = (worker: Worker): Promise<void> =>
    new Promise((resolve) => {
      retiring.add(worker);
      serving.delete(worker);
      worker.once('exit', () => resolve());
      worker.process.kill('SIGTERM');
    });

  const stopAll = (signal: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping workers', { signal });
    const workers = Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => worker !== undefined && !worker.isDead(),
    );
    if (workers.length === 0) process.exit(exitCode);
    setTimeout(
      () => {
        log.error('workers still running past SHUTDOWN_TIMEOUT_MS; killing them');
        for (const worker of workers) worker.process.kill('SIGKILL');
        process.exit(1);
      },
      operator.shutdownDelayMs + operator.shutdownTimeoutMs + STOP_MARGIN_MS,
    ).unref();
    let running = workers.length;
    for (const worker of workers) {
      worker.once('exit', () => {
        running -= 1;
        if (running === 0) process.exit(exitCode);
      });
      worker.process.kill('SIGTERM');
    }
  };

  const restartOneByOne = async () => {
    if (stopping || restarting) {
      log.warn('SIGHUP ignored: the workers are already being restarted or stopped');
      return;
    }
    restarting = true;
    const old = [...serving];
    log.info('restarting the workers one at a time', { workers: old.length });
    try {
      for (const worker of old) {
        if (stopping) return;
        if (worker.isDead()) continue;
        const replacement = await fork();
        log.info('worker replaced; draining the old one', { pid: worker.process.pid, by: replacement.process.pid });
        await retire(worker);
      }
      log.info('workers restarted', { workers: serving.size });
    } catch (error) {
      log.error('restart stopped: a new worker did not start; the others keep serving', {
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      restarting = false;
    }
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    serving.delete(worker);
    addressesOf.delete(worker);
    if (retiring.delete(worker) || stopping) return;
    log.error('worker died', { pid: worker.process.pid, code, signal, livedMs: lived });
    // A setting to fix fails every new worker alike: stop with the worker's own code, which the unit does not restart.
    if (code === EXIT_SETTING_TO_FIX && serving.size === 0) {
      stopAll('a setting must be fixed', EXIT_SETTING_TO_FIX);
      return;
    }
    earlyDeaths = lived < EARLY_DEATH_MS ? earlyDeaths + 1 : 0;
    if (earlyDeaths >= EARLY_DEATHS_TO_GIVE_UP) {
      log.error('workers keep dying soon after starting; stopping the service', { deaths: earlyDeaths });
      stopAll('workers dying', 1);
      return;
    }
    setTimeout(() => {
      // A worker that died while being replaced (a restart) leaves no place empty.
      if (!stopping && live().length < count) fork().catch(() => undefined);
    }, RESTART_DELAY_MS).unref();
  });

  relayFigures(() => [...serving]);
  process.once('SIGTERM', () => stopAll('SIGTERM', 0));
  process.once('SIGINT', () => stopAll('SIGINT', 0));
  process.on('SIGHUP', () => void restartOneByOne());

  fork()
    .then(async (first) => {
      await Promise.all(Array.from({ length: count - 1 }, fork));
      // The node's start-up line: once, with the settings every worker runs with.
      log.info('workers listening', {
        workers: count,
        pid: process.pid,
        firstWorker: first.process.pid,
        addresses: addressesOf.get(first) ?? [],
        settings,
        ...settingsFileFields(),
      });
    })
    .catch((error: unknown) => {
      log.error('failed to start the workers', { error: error instanceof Error ? error.message : String(error) });
      stopAll('start failed', 1);
    });
}
