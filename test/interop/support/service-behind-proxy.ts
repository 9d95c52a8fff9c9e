import type { RunningService } from '../../../src/service';
import { startTestService } from '../../support/service';
import { type ProxyOptions, startRecordingProxy, type RecordingProxy } from './recording-proxy';

export interface ServiceBehindProxy {
  readonly service: RunningService;
  /** The clients' way in: its URL serves the WSDL and takes the calls, and it records them. */
  readonly proxy: RecordingProxy;
}

function started<Value>(value: Value | undefined, name: string): Value {
  if (value === undefined) throw new Error(`the ${name} did not start (see the beforeAll error)`);
  return value;
}

/**
 * Registers, in the caller's describe, hooks that start a fresh service with the given settings
 * and a recording proxy in front of it before the tests, and close both after them.
 */
export function useServiceBehindProxy(
  settings: Record<string, string> = {},
  proxyOptions: ProxyOptions = {},
  prepare: (service: RunningService) => Promise<void> = async () => undefined,
): ServiceBehindProxy {
  let service: RunningService | undefined;
  let proxy: RecordingProxy | undefined;

  beforeAll(async () => {
    service = await startTestService(settings);
    await prepare(service);
    proxy = await startRecordingProxy(service.url, proxyOptions);
  });

  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });

  return {
    get service() {
      return started(service, 'service');
    },
    get proxy() {
      return started(proxy, 'recording proxy');
    },
  };
}
