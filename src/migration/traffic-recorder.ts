import { createWriteStream, type WriteStream } from 'node:fs';
import { log } from '../lib/log';
import { type NetworkList, parseNetworks } from '../lib/networks';
import { FORWARDED_HEADERS, type LegacyRequest } from './legacy-client';
import type { RecordedCall } from './recorded-call';

export interface RecordingSettings {
  readonly recordFile: string;
  readonly recordLoopback: boolean;
  readonly recordMaxBytes: number;
}

const LOOPBACK: NetworkList = parseNetworks('127.0.0.0/8,::1/128');

/**
 * Writes the calls this service is sent, one JSON line each (see recorded-call.ts), for
 * `school-service replay`. It records the calls that were let in (a refused one is not kept),
 * with the headers passed to a legacy service and never a caller's credentials, in a file only
 * its owner may read; never in the log. Loopback callers are left out unless asked for, and
 * recording stops at RECORD_MAX_BYTES.
 */
export class TrafficRecorder {
  private readonly file: WriteStream;
  private written = 0;
  private full = false;

  constructor(private readonly settings: RecordingSettings) {
    this.file = createWriteStream(settings.recordFile, { flags: 'a', mode: 0o600 });
    this.file.on('error', (error) => {
      this.full = true;
      log.error('recording stopped', { file: settings.recordFile, error: error.message });
    });
  }

  /** Records a call that was let in: its operation and binding as decoded, the request as it came. */
  record(operation: string, binding: string, call: LegacyRequest, at: Date): void {
    if (this.full) return;
    if (!this.settings.recordLoopback && LOOPBACK.contains(call.callerAddress)) return;
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = call.headers[name];
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const line: RecordedCall = {
      at: at.toISOString(),
      operation,
      binding,
      method: call.method,
      path: call.target,
      headers,
      body: call.body?.toString('utf8') ?? '',
    };
    const text = `${JSON.stringify(line)}\n`;
    this.written += Buffer.byteLength(text);
    if (this.written > this.settings.recordMaxBytes) {
      this.full = true;
      log.warn('recording stopped: RECORD_MAX_BYTES reached', { file: this.settings.recordFile });
      return;
    }
    this.file.write(text);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.file.end(resolve));
  }
}
