import { loadConfig } from '../../src/config/service-config';
import { readIgnoredPaths, shownLegacyUrl } from '../../src/config/migration-settings';

describe('ROUTES, LEGACY_URL and SHADOW_IGNORE', () => {
  const LEGACY = { LEGACY_URL: 'http://legacy.school.example/Service/' };

  test('every operation is local by default, and without a legacy service', () => {
    const { migration } = loadConfig({});
    expect(migration.legacyUrl).toBeUndefined();
    expect(new Set(Object.values(migration.routes))).toEqual(new Set(['local']));
    expect(Object.keys(migration.routes)).toHaveLength(18);
  });

  test('a default route and routes per operation; the base URL without its trailing slash', () => {
    const { migration } = loadConfig({
      ...LEGACY,
      ROUTES: 'default=shadow, GetStudentInfoById=canary,AuthCode=LEGACY',
    });
    expect(migration.legacyUrl).toBe('http://legacy.school.example/Service');
    expect(migration.routes.HelloWorld).toBe('shadow');
    expect(migration.routes.GetStudentInfoById).toBe('canary');
    expect(migration.routes.AuthCode).toBe('legacy');
    expect(migration.noiseSample).toBe(20);
    expect(migration.keepDays).toBe(14);
  });

  test.each([
    ['GetStudentInfo=canary', 'ROUTES: "GetStudentInfo" is no operation of the service'],
    [
      'HelloWorld=mirror',
      'ROUTES: "HelloWorld=mirror" names no route; a route is one of local, legacy, shadow, canary',
    ],
    ['HelloWorld', 'ROUTES: "HelloWorld" must be operation=route'],
  ])('ROUTES=%s is refused: %s', (routes, message) => {
    expect(() => loadConfig({ ...LEGACY, ROUTES: routes })).toThrow(message);
  });

  test('a route other than local needs LEGACY_URL', () => {
    expect(() => loadConfig({ ROUTES: 'AuthCode=shadow' })).toThrow(
      'ROUTES: AuthCode is routed shadow, which needs LEGACY_URL',
    );
    expect(loadConfig({ ROUTES: 'default=local' }).migration.routes.AuthCode).toBe('local');
  });

  test('a user and password in LEGACY_URL are used, and never shown', () => {
    const { migration } = loadConfig({ LEGACY_URL: 'https://school:s3cret@legacy.example/Service' });
    expect(migration.legacyUrl).toBe('https://school:s3cret@legacy.example/Service');
    expect(shownLegacyUrl(migration)).toBe('https://legacy.example/Service');
  });

  test('LEGACY_URL must be an http URL', () => {
    expect(() => loadConfig({ LEGACY_URL: 'ftp://legacy' })).toThrow(
      'LEGACY_URL must be an absolute http or https URL',
    );
  });

  test('SHADOW_IGNORE names an operation (or *) and a path with * steps', () => {
    expect(readIgnoredPaths('GetStudentInfoById:/Envelope/Body/*/*/LastLogin, *:/d/Stamp')).toEqual([
      { operation: 'GetStudentInfoById', steps: ['Envelope', 'Body', '*', '*', 'LastLogin'] },
      { operation: '*', steps: ['d', 'Stamp'] },
    ]);
    expect(() => readIgnoredPaths('Nope:/a')).toThrow('SHADOW_IGNORE: "Nope" is no operation');
    expect(() => readIgnoredPaths('HelloWorld')).toThrow('must be Operation:/path/to/field');
  });
});
