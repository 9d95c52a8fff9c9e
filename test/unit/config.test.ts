import { ConfigError, loadConfig } from '../../src/config/service-config';

describe('settings', () => {
  test('defaults', () => {
    expect(loadConfig({})).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      serviceNamespace: 'http://tempuri.org/',
      publicBaseUrl: undefined,
      maxBodyBytes: 1048576,
      logLevel: 'info',
      dataDirectory: './data',
      databaseUrl: undefined,
      demoData: true,
      contract: 'documented',
      workers: 1,
    });
  });

  test('values are read and normalised', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      SERVICE_NAMESPACE: 'urn:school',
      PUBLIC_BASE_URL: 'https://school.example/svc/',
      MAX_BODY_BYTES: '2048',
      LOG_LEVEL: 'WARN',
      DATA_DIR: '/var/lib/school',
      DATABASE_URL: 'postgres://school:secret@db:5432/school',
      DEMO_DATA: 'off',
      CONTRACT: 'typed',
      WORKERS: '4',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      serviceNamespace: 'urn:school',
      publicBaseUrl: 'https://school.example/svc',
      maxBodyBytes: 2048,
      logLevel: 'warn',
      dataDirectory: '/var/lib/school',
      databaseUrl: 'postgres://school:secret@db:5432/school',
      demoData: false,
      contract: 'typed',
      workers: 4,
    });
  });

  test.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535, got 70000'],
    [{ MAX_BODY_BYTES: '-1' }, 'MAX_BODY_BYTES must be a whole number'],
    [{ MAX_BODY_BYTES: '10' }, 'MAX_BODY_BYTES must be between 1024'],
    [{ PUBLIC_BASE_URL: 'school.example' }, 'PUBLIC_BASE_URL must be an absolute http or https URL'],
    [{ PUBLIC_BASE_URL: 'ftp://school.example' }, 'PUBLIC_BASE_URL must be an absolute http or https URL'],
    [{ PUBLIC_BASE_URL: 'https://school.example/?a=1' }, 'PUBLIC_BASE_URL must not carry a query or fragment'],
    [{ SERVICE_NAMESPACE: 'not a uri' }, 'SERVICE_NAMESPACE must be an absolute URI'],
    [{ SERVICE_NAMESPACE: 'http://x/"><y' }, 'SERVICE_NAMESPACE must be an absolute URI'],
    [{ HOST: 'a b' }, 'HOST must be a host name or IP address'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of debug, info, warn, error, silent'],
    [{ DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL must be a postgres://user:password@host:port/database URL'],
    [{ DEMO_DATA: 'maybe' }, 'DEMO_DATA must be on or off, got "maybe"'],
    [{ CONTRACT: 'json' }, 'CONTRACT must be one of documented, typed, got "json"'],
    [{ WORKERS: '0' }, 'WORKERS must be between 1 and 64, got 0'],
    [{ WORKERS: 'all' }, 'WORKERS must be a whole number, got "all"'],
    [{ DELIVERY_WORKER: 'elsewhere' }, 'DELIVERY_WORKER must be one of in-process, off'],
    [{ OUTBOX_KEY: 'short' }, 'OUTBOX_KEY must be 64 hexadecimal digits'],
    [
      { DELIVERY_BACKOFF_BASE_MS: '5000', DELIVERY_BACKOFF_MAX_MS: '1000' },
      'DELIVERY_BACKOFF_MAX_MS must not be below DELIVERY_BACKOFF_BASE_MS',
    ],
    [{ SMS_GATEWAY_URL: 'gateway' }, 'SMS_GATEWAY_URL must be an absolute http or https URL'],
    [
      { SMS_GATEWAY_BODY_TEMPLATE: '{"text":"{text}"}' },
      'SMS_GATEWAY_BODY_TEMPLATE must contain the placeholders {to} and {text}',
    ],
    [{ DEFAULT_COUNTRY_CODE: '+0' }, 'DEFAULT_COUNTRY_CODE must be a country calling code'],
    [{ PARTNER_SCHOOLS: 'https://b.example' }, 'FEDERATION_SECRET must be set when PARTNER_SCHOOLS is'],
    [
      { PARTNER_SCHOOLS: 'https://user@b.example', FEDERATION_SECRET: '0123456789abcdef' },
      'PARTNER_SCHOOLS must hold http(s) base URLs',
    ],
    [{ SCHOOL_BASE_URL: 'https://a.example/?x=1' }, 'SCHOOL_BASE_URL must hold http(s) base URLs'],
    [{ METRICS_NETWORKS: '10.0.0.0/33' }, 'METRICS_NETWORKS: "10.0.0.0/33" has no valid prefix length'],
    [{ METRICS_NETWORKS: 'monitoring' }, 'METRICS_NETWORKS: "monitoring" is not an IP address or CIDR network'],
    [{ SHUTDOWN_TIMEOUT_MS: '50' }, 'SHUTDOWN_TIMEOUT_MS must be between 100 and 600000, got 50'],
    [{ SHUTDOWN_DELAY_MS: 'soon' }, 'SHUTDOWN_DELAY_MS must be a whole number, got "soon"'],
    [{ REQUEST_MAX_ELEMENTS: '0' }, 'REQUEST_MAX_ELEMENTS must be between 16 and 1000000, got 0'],
    [{ REQUEST_MAX_ATTRIBUTES: '99' }, 'REQUEST_MAX_ATTRIBUTES must be between 100 and 1000000, got 99'],
    [{ REQUEST_MAX_DEPTH: '1000' }, 'REQUEST_MAX_DEPTH must be between 8 and 256, got 1000'],
    [{ REQUEST_MAX_FORM_FIELDS: 'many' }, 'REQUEST_MAX_FORM_FIELDS must be a whole number, got "many"'],
    [{ REQUEST_MAX_JSON_ITEMS: '2000000' }, 'REQUEST_MAX_JSON_ITEMS must be between 16 and 1000000, got 2000000'],
  ])('%p is refused with a message naming the setting', (environment, message) => {
    expect(() => loadConfig(environment)).toThrow(ConfigError);
    expect(() => loadConfig(environment)).toThrow(message);
  });

  test('delivery and notification defaults', () => {
    const { delivery, notifications } = loadConfig({});
    expect(delivery).toEqual({
      worker: 'in-process',
      pollMs: 1000,
      batch: 20,
      leaseMs: 60000,
      maxAttempts: 8,
      backoffBaseMs: 2000,
      backoffMaxMs: 3600000,
      gatewayTimeoutMs: 10000,
      outboxKey: undefined,
      push: { url: undefined, token: undefined },
      sms: {
        url: undefined,
        method: 'POST',
        authorization: undefined,
        contentType: 'application/json',
        bodyTemplate: '{"to":"{to}","text":"{text}"}',
      },
    });
    expect(notifications).toEqual({
      defaultCountryCode: '966',
      authCodePerPhonePerMinute: 1,
      authCodePerPhonePerHour: 5,
      authCodePerCallerPerHour: 30,
      pushNotesMaxLength: 1000,
      pushPerCallerPerMinute: 120,
      pushPerDevicePerMinute: 10,
      markNotesPerCallerPerMinute: 30,
      pushPerSenderPerMinute: 60,
      schoolBaseUrl: undefined,
      partnerSchools: [],
      federationSecret: undefined,
      forwardTimeoutMs: 5000,
      forwardMaxResponseBytes: 65536,
    });
  });

  test('operator settings: metrics for this machine, ten seconds to drain, no delay; or as set', () => {
    const defaults = loadConfig({}).operator;
    expect([defaults.metricsNetworks.entries, defaults.shutdownTimeoutMs, defaults.shutdownDelayMs]).toEqual([
      ['127.0.0.0/8', '::1'],
      10_000,
      0,
    ]);
    const set = loadConfig({
      METRICS_NETWORKS: '10.1.0.0/16, 2001:db8::/32',
      SHUTDOWN_TIMEOUT_MS: '30000',
      SHUTDOWN_DELAY_MS: '5000',
    }).operator;
    expect([set.metricsNetworks.contains('10.1.2.3'), set.metricsNetworks.contains('127.0.0.1')]).toEqual([
      true,
      false,
    ]);
    expect([set.shutdownTimeoutMs, set.shutdownDelayMs]).toEqual([30_000, 5_000]);
  });

  test('METRICS_NETWORKS follows a narrowed LOCAL_NETWORKS unless it is set itself', () => {
    const narrowed = loadConfig({ LOCAL_NETWORKS: '127.0.0.1/32' }).operator.metricsNetworks;
    expect([narrowed.contains('127.0.0.1'), narrowed.contains('127.0.0.2'), narrowed.contains('::1')]).toEqual([
      true,
      false,
      false,
    ]);
    const own = loadConfig({ LOCAL_NETWORKS: '127.0.0.1/32', METRICS_NETWORKS: '10.0.0.0/8' }).operator.metricsNetworks;
    expect([own.contains('10.1.2.3'), own.contains('127.0.0.1')]).toEqual([true, false]);
  });

  test('request budgets: documented defaults, or as set', () => {
    // The defaults docs/asmx-conventions.md states, in its order.
    expect(Object.values(loadConfig({}).budgets)).toEqual([1000, 1000, 200, 32, 262144, 1000, 524288, 32, 1000, 1000]);
    const set = loadConfig({ REQUEST_MAX_ELEMENTS: '50', REQUEST_MAX_FORM_FIELDS: '20', REQUEST_MAX_JSON_KEYS: '30' });
    expect([set.budgets.xmlElements, set.budgets.formFields, set.budgets.jsonKeys]).toEqual([50, 20, 30]);
  });

  test('school addresses are normalised: scheme and host lower case, default port and trailing slash dropped', () => {
    const { notifications } = loadConfig({
      SCHOOL_BASE_URL: 'HTTPS://A.Example:443/Services/',
      PARTNER_SCHOOLS: ' http://b.example:80/ , http://c.example:8080/x',
      FEDERATION_SECRET: '0123456789abcdef',
    });
    expect([notifications.schoolBaseUrl, notifications.partnerSchools]).toEqual([
      'https://a.example/Services',
      ['http://b.example', 'http://c.example:8080/x'],
    ]);
  });
});
