import { ConfigError, readAbsoluteUrl, readInteger, type Environment } from './readers';

/** Where and how accepted SMS and push messages are delivered. */
export interface DeliveryConfig {
  /** `in-process`: the service delivers; `off`: a separate `npm run delivery-worker` does. */
  worker: 'in-process' | 'off';
  pollMs: number;
  batch: number;
  /** How long a worker holds a claimed message; after it, another worker may take it. */
  leaseMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  gatewayTimeoutMs: number;
  /** 64 hex digits; undefined: a key file in the data folder. */
  outboxKey: string | undefined;
  push: { url: string | undefined; token: string | undefined };
  sms: {
    url: string | undefined;
    method: 'GET' | 'POST';
    authorization: string | undefined;
    contentType: string;
    bodyTemplate: string;
  };
}

export const DEFAULT_SMS_BODY_TEMPLATE = '{"to":"{to}","text":"{text}"}';

function readChoice<T extends string>(env: Environment, name: string, choices: readonly T[], fallback: T): T {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  const choice = choices.find((candidate) => candidate.toLowerCase() === raw.toLowerCase());
  if (!choice) throw new ConfigError(`${name} must be one of ${choices.join(', ')}, got "${raw}"`);
  return choice;
}

function readOptional(env: Environment, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

function readOutboxKey(env: Environment): string | undefined {
  const key = readOptional(env, 'OUTBOX_KEY');
  if (key !== undefined && !/^[0-9a-fA-F]{64}$/.test(key))
    throw new ConfigError('OUTBOX_KEY must be 64 hexadecimal digits (a 256-bit key), e.g. from `openssl rand -hex 32`');
  return key;
}

export function readDeliveryConfig(env: Environment): DeliveryConfig {
  const backoffBaseMs = readInteger(env, 'DELIVERY_BACKOFF_BASE_MS', 2_000, 1, 86_400_000);
  const backoffMaxMs = readInteger(env, 'DELIVERY_BACKOFF_MAX_MS', 3_600_000, 1, 86_400_000);
  if (backoffMaxMs < backoffBaseMs)
    throw new ConfigError('DELIVERY_BACKOFF_MAX_MS must not be below DELIVERY_BACKOFF_BASE_MS');
  const template = readOptional(env, 'SMS_GATEWAY_BODY_TEMPLATE') ?? DEFAULT_SMS_BODY_TEMPLATE;
  if (!template.includes('{to}') || !template.includes('{text}'))
    throw new ConfigError('SMS_GATEWAY_BODY_TEMPLATE must contain the placeholders {to} and {text}');
  return {
    worker: readChoice(env, 'DELIVERY_WORKER', ['in-process', 'off'] as const, 'in-process'),
    pollMs: readInteger(env, 'DELIVERY_POLL_MS', 1_000, 10, 3_600_000),
    batch: readInteger(env, 'DELIVERY_BATCH', 20, 1, 1_000),
    leaseMs: readInteger(env, 'DELIVERY_LEASE_MS', 60_000, 100, 86_400_000),
    maxAttempts: readInteger(env, 'DELIVERY_MAX_ATTEMPTS', 8, 1, 100),
    backoffBaseMs,
    backoffMaxMs,
    gatewayTimeoutMs: readInteger(env, 'GATEWAY_TIMEOUT_MS', 10_000, 1, 600_000),
    outboxKey: readOutboxKey(env),
    push: { url: readAbsoluteUrl(env, 'PUSH_GATEWAY_URL')?.href, token: readOptional(env, 'PUSH_GATEWAY_TOKEN') },
    sms: {
      url: readAbsoluteUrl(env, 'SMS_GATEWAY_URL')?.href,
      method: readChoice(env, 'SMS_GATEWAY_METHOD', ['GET', 'POST'] as const, 'POST'),
      authorization: readOptional(env, 'SMS_GATEWAY_AUTHORIZATION'),
      contentType: readOptional(env, 'SMS_GATEWAY_CONTENT_TYPE') ?? 'application/json',
      bodyTemplate: template,
    },
  };
}
