import { ConfigError, loadConfig } from '../../src/config';

describe('settings', () => {
  test('defaults', () => {
    expect(loadConfig({})).toEqual({
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
    });
    expect(config).toEqual({
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
  ])('%p is refused with a message naming the setting', (environment, message) => {
    expect(() => loadConfig(environment)).toThrow(ConfigError);
    expect(() => loadConfig(environment)).toThrow(message);
  });
});
