import { envelope11, NS } from './soap';

/**
 * Constant load on a balanced service, as the tests of several nodes drive it: callers calling
 * back to back over keep-alive connections, mostly GetStudentInfoById and every fourth call a push
 * over SOAP 1.1 whose notes carry its number ("balanced N"), so that what reaches the gateway can
 * be matched with what the service answered. Every call is kept with what became of it.
 */

/** What became of a call: a result; a SOAP Server fault; or no SOAP answer (the connection failed, a 502 ...). */
export type CallOutcome = 'ok' | 'fault' | 'failed';

export interface LoadCall {
  /** The order in which calls started, from 0. */
  readonly seq: number;
  readonly kind: 'read' | 'push';
  /** The push's number, in its notes. */
  readonly push?: number;
  readonly startedAt: number;
  endedAt: number;
  outcome: CallOutcome;
  /** The HTTP status and the start of the body, or the error: for the messages of failed assertions. */
  detail: string;
}

/** Longer than any answer should take; a call still unanswered then counts as failed (a hang). */
export const CLIENT_TIMEOUT_MS = 30_000;

const SERVER_FAULT = /<faultcode>soap:Server<\/faultcode><faultstring>Server was unable to process request\. ---&gt; /;

export function pushNotes(push: number): string {
  return `balanced ${push}`;
}

/** The number of a push from its notes, or undefined for notes this load did not send. */
export function pushNumber(notes: string): number | undefined {
  const match = /^balanced (\d+)$/.exec(notes);
  return match ? Number(match[1]) : undefined;
}

function request(seq: number, devices: readonly PushDevice[]): { path: string; action: string; body: string } {
  if (seq % 4 === 3) {
    const device = devices[seq % devices.length];
    return {
      path: '/PushNotificationMobile.asmx',
      action: 'PushNotificationToGateway',
      body:
        `<PushNotificationToGateway xmlns="${NS}"><applicationID>${device.applicationId}</applicationID>` +
        `<senderId>office</senderId><deviceId>${device.deviceId}</deviceId><notes>${pushNotes(seq)}</notes>` +
        '<notes_type>notice</notes_type></PushNotificationToGateway>',
    };
  }
  return {
    path: '/GetStudentsInformation.asmx',
    action: 'GetStudentInfoById',
    body: `<GetStudentInfoById xmlns="${NS}"><StudentId>${(seq % 100) + 1}</StudentId></GetStudentInfoById>`,
  };
}

/** A registered, enabled device, so that an accepted push is really sent. */
export interface PushDevice {
  readonly applicationId: string;
  readonly deviceId: string;
}

export class BalancedLoad {
  /** Every call started, in order (index = seq). */
  readonly calls: LoadCall[] = [];
  private running = false;
  private completedCount = 0;
  private readonly waiters = new Set<() => void>();
  private callers: Promise<void>[] = [];

  constructor(
    private readonly url: string,
    private readonly devices: readonly PushDevice[],
    private readonly concurrency = 4,
  ) {}

  start(): void {
    this.running = true;
    this.callers = Array.from({ length: this.concurrency }, () => this.caller());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.callers);
  }

  /** The seq the next call will have: calls from here on started after this moment. */
  mark(): number {
    return this.calls.length;
  }

  /** The calls started since `from` (a mark), up to `to` (a mark) or now, once every one of them is answered. */
  async since(from: number, to = this.calls.length): Promise<LoadCall[]> {
    const calls = this.calls.slice(from, to);
    // Each call ends within the client's time limit, so this ends too.
    while (calls.some((call) => call.endedAt === 0)) await this.answered(1, CLIENT_TIMEOUT_MS * 2);
    return calls;
  }

  /** The calls started before now that are still waiting for their answer. */
  inFlight(): LoadCall[] {
    return this.calls.filter((call) => call.endedAt === 0);
  }

  /** Resolves once `count` more calls have been answered (or failed); rejects after the time limit. */
  answered(count: number, timeoutMs = 60_000): Promise<void> {
    const target = this.completedCount + count;
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.completedCount < target) return;
        finish();
        resolve();
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`only ${this.completedCount - target + count} of ${count} calls answered in time`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  private async caller(): Promise<void> {
    while (this.running) {
      const seq = this.calls.length;
      const { path, action, body } = request(seq, this.devices);
      const call: LoadCall = {
        seq,
        kind: action === 'GetStudentInfoById' ? 'read' : 'push',
        push: action === 'GetStudentInfoById' ? undefined : seq,
        startedAt: Date.now(),
        endedAt: 0,
        outcome: 'failed',
        detail: '',
      };
      this.calls.push(call);
      try {
        const response = await fetch(`${this.url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}${action}"` },
          body: envelope11(body),
          signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
        });
        const text = await response.text();
        const faultText = /<faultstring>(.*)<\/faultstring>/.exec(text)?.[1];
        call.detail = `HTTP ${response.status} ${faultText ?? text.slice(0, 300)}`;
        if (response.status === 200 && text.includes(`<${action}Result>`)) call.outcome = 'ok';
        else if (response.status === 500 && SERVER_FAULT.test(text)) call.outcome = 'fault';
      } catch (error) {
        call.detail = String((error as { cause?: unknown }).cause ?? error);
      }
      call.endedAt = Date.now();
      this.completedCount += 1;
      for (const wake of [...this.waiters]) wake();
    }
  }
}
