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

/** Every worker of the cluster that has not exited. */
function aliveWorkers(): Worker[] {
  return Object.values(cluster.workers ?? {}).filter(
    (worker): worker is Worker => worker !== undefined && !worker.isDead(),
  );
}

/** The primary's bookkeeping of its workers: which serve, which are being drained, how many died early. */
class Supervisor {
  private stopping = false;
  private restarting = false;
  private earlyDeaths = 0;
  private readonly startedAt = new Map<Worker, number>();
  /** Workers that listen and are not being drained: those that serve, and are asked for their figures. */
  private readonly serving = new Set<Worker>();
  /** Workers being drained on purpose: their exit is no death to replace. */
  private readonly retiring = new Set<Worker>();
  private readonly addressesOf = new Map<Worker, readonly string[]>();

  constructor(
    private readonly count: number,
    private readonly operator: OperatorSettings,
  ) {}

  servingWorkers(): Worker[] {
    return [...this.serving];
  }

  /** Starts a worker; resolves once it listens, rejects if it exits before. */
  fork(): Promise<Worker> {
    return new Promise((resolve, reject) => {
      const worker = cluster.fork();
      this.startedAt.set(worker, Date.now());
      const onExit = (code: number | null) =>
        reject(new Error(`worker ${worker.process.pid} exited with ${code} before listening`));
      worker.once('exit', onExit);
      worker.on('message', (message: ListeningMessage | WarningMessage) => {
        if (message?.kind === 'warning') warnOnce(message.message, message.fields);
        if (message?.kind !== 'listening') return;
        worker.off('exit', onExit);
        this.serving.add(worker);
        this.addressesOf.set(worker, message.addresses);
        resolve(worker);
      });
    });
  }

  /** The first worker alone (it migrates the store, makes the demo school and the key), then the others. */
  async startAll(settings: Record<string, unknown>): Promise<void> {
    try {
      const first = await this.fork();
      await Promise.all(Array.from({ length: this.count - 1 }, () => this.fork()));
      // The node's start-up line: once, with the settings every worker runs with.
      log.info('workers listening', {
        workers: this.count,
        pid: process.pid,
        firstWorker: first.process.pid,
        addresses: this.addressesOf.get(first) ?? [],
        settings,
        ...settingsFileFields(),
      });
    } catch (error) {
      log.error('failed to start the workers', { error: error instanceof Error ? error.message : String(error) });
      this.stopAll('start failed', 1);
    }
  }

  /** Drains one worker and resolves once it has exited. */
  private retire(worker: Worker): Promise<void> {
    return new Promise((resolve) => {
      this.retiring.add(worker);
      this.serving.delete(worker);
      worker.once('exit', () => resolve());
      worker.process.kill('SIGTERM');
    });
  }

  /** Drains every worker and exits with `exitCode`; past their deadline, those still running are killed. */
  stopAll(signal: string, exitCode: number): void {
    if (this.stopping) return;
    this.stopping = true;
    log.info('stopping workers', { signal });
    const workers = aliveWorkers();
    if (workers.length === 0) process.exit(exitCode);
    setTimeout(
      () => {
        log.error('workers still running past SHUTDOWN_TIMEOUT_MS; killing them');
        for (const worker of workers) worker.process.kill('SIGKILL');
        process.exit(1);
      },
      this.operator.shutdownDelayMs + this.operator.shutdownTimeoutMs + STOP_MARGIN_MS,
    ).unref();
    let running = workers.length;
    for (const worker of workers) {
      worker.once('exit', () => {
        running -= 1;
        if (running === 0) process.exit(exitCode);
      });
      worker.process.kill('SIGTERM');
    }
  }

  /** SIGHUP: each serving worker replaced by a new one, which listens before the old one is drained. */
  async restartOneByOne(): Promise<void> {
    if (this.stopping || this.restarting) {
      log.warn('SIGHUP ignored: the workers are already being restarted or stopped');
      return;
    }
    this.restarting = true;
    const old = [...this.serving];
    log.info('restarting the workers one at a time', { workers: old.length });
    try {
      for (const worker of old) {
        if (this.stopping) return;
        if (worker.isDead()) continue;
        const replacement = await this.fork();
        log.info('worker replaced; draining the old one', { pid: worker.process.pid, by: replacement.process.pid });
        await this.retire(worker);
      }
      log.info('workers restarted', { workers: this.serving.size });
    } catch (error) {
      log.error('restart stopped: a new worker did not start; the others keep serving', {
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      this.restarting = false;
    }
  }

  /** A worker exited: one drained on purpose is forgotten, one that died is replaced, unless they keep dying. */
  workerExited(worker: Worker, code: number | null, signal: string | null): void {
    const lived = Date.now() - (this.startedAt.get(worker) ?? 0);
    this.startedAt.delete(worker);
    this.serving.delete(worker);
    this.addressesOf.delete(worker);
    if (this.retiring.delete(worker) || this.stopping) return;
    log.error('worker died', { pid: worker.process.pid, code, signal, livedMs: lived });
    // A setting to fix fails every new worker alike: stop with the worker's own code, which the unit does not restart.
    if (code === EXIT_SETTING_TO_FIX && this.serving.size === 0) {
      this.stopAll('a setting must be fixed', EXIT_SETTING_TO_FIX);
      return;
    }
    this.earlyDeaths = lived < EARLY_DEATH_MS ? this.earlyDeaths + 1 : 0;
    if (this.earlyDeaths >= EARLY_DEATHS_TO_GIVE_UP) {
      log.error('workers keep dying soon after starting; stopping the service', { deaths: this.earlyDeaths });
      this.stopAll('workers dying', 1);
      return;
    }
    setTimeout(() => {
      // A worker that died while being replaced (a restart) leaves no place empty.
      const live = aliveWorkers().filter((alive) => !this.retiring.has(alive));
      if (!this.stopping && live.length < this.count) this.fork().catch(() => undefined);
    }, RESTART_DELAY_MS).unref();
  }
}

/** Runs in the primary process: starts the workers, replaces dead ones, restarts them on SIGHUP, stops them. */
export function superviseWorkers(count: number, operator: OperatorSettings, settings: Record<string, unknown>): void {
  const supervisor = new Supervisor(count, operator);
  cluster.on('exit', (worker, code, signal) => supervisor.workerExited(worker, code, signal));
  relayFigures(() => supervisor.servingWorkers());
  process.once('SIGTERM', () => supervisor.stopAll('SIGTERM', 0));
  process.once('SIGINT', () => supervisor.stopAll('SIGINT', 0));
  process.on('SIGHUP', () => void supervisor.restartOneByOne());
  void supervisor.startAll(settings);
}
