import { SchoolEntryError, schoolEntry } from '../../src/district/school-entry';
import { schoolConfig } from '../../src/district/school-config';
import { schoolEnvironment, shownSchoolSettings } from '../../src/district/school-settings';
import { schoolPathFor } from '../../src/district/school-slug';
import { loadConfig } from '../../src/config/service-config';

/**
 * The rules of a school's own settings and of the paths `import --add-schools` gives, without a
 * service: which settings a school may hold, what it inherits from the deployment and what not,
 * how its secrets are shown.
 */
describe('a school’s own settings', () => {
  it.each([
    ['a setting no school holds of its own', { PORT: '1' }],
    ['a value that is not text', { SIS_URL: 7 }],
    ['a value with a line break', { SIS_SCHOOL: 'a\nb' }],
    ['a value over 2,000 characters', { PARTNER_SCHOOLS: 'x'.repeat(2_001) }],
    ['settings that are a list', ['SIS_URL=x']],
  ])('refuses %s in the list', (_what, settings) => {
    expect(() => schoolEntry({ sourcedId: 'a', path: '/a', settings })).toThrow(SchoolEntryError);
  });

  it('lends a school none of the deployment’s SIS and legacy settings, and the rest of its own', () => {
    const deployment = {
      SIS_URL: 'https://sis.example.org/ims/oneroster/v1p1',
      SIS_CLIENT_ID: 'district',
      SIS_CLIENT_SECRET: 'district-secret',
      LEGACY_URL: 'https://legacy.example.org/',
      ROUTES: 'default=legacy',
      LEGACY_TIMEOUT_MS: '2500',
      PUSH_NOTES_MAX_LENGTH: '300',
      DATA_DIR: '/srv/district',
    };
    const config = loadConfig(deployment);
    const school = schoolEntry({ sourcedId: 'org-n', path: '/north', settings: { PUSH_PER_DEVICE_PER_MINUTE: '3' } });
    const own = schoolConfig(config, school);
    expect(own.sis.url).toBeUndefined();
    expect(own.sis.clientSecret.reveal()).toBe('');
    expect(own.migration.legacyUrl).toBeUndefined();
    expect(own.migration.routes.HelloWorld).toBe('local');
    expect(own.migration.legacyTimeoutMs).toBe(2_500);
    expect(own.notifications.pushNotesMaxLength).toBe(300);
    expect(own.notifications.pushPerDevicePerMinute).toBe(3);
    expect(own.dataDirectory).toBe('/srv/district/schools/org-n');
    expect(own.school).toBe('org-n');
    expect(schoolEnvironment(deployment)).not.toHaveProperty('SIS_CLIENT_SECRET');
  });

  it('lends a school not the deployment’s SCHOOL_BASE_URL, which names the deployment’s own school', () => {
    const deployment = { SCHOOL_BASE_URL: 'https://own.example.org', DATA_DIR: '/srv/district' };
    const config = loadConfig(deployment);
    const north = schoolEntry({ sourcedId: 'org-n', path: '/north' });
    expect(config.notifications.schoolBaseUrl).toBe('https://own.example.org');
    expect(schoolConfig(config, north).notifications.schoolBaseUrl).toBeUndefined();
    const south = schoolEntry({
      sourcedId: 'org-s',
      path: '/south',
      settings: { SCHOOL_BASE_URL: 'https://south.example.org/' },
    });
    expect(schoolConfig(config, south).notifications.schoolBaseUrl).toBe('https://south.example.org');
  });

  it('shows a secret and a URL’s password as ***, and the rest as it is', () => {
    expect(
      shownSchoolSettings({
        SIS_CLIENT_SECRET: 'x',
        FEDERATION_SECRET: 'y',
        LEGACY_URL: 'https://user:pw@legacy.example.org/',
        SIS_CLIENT_ID: 'north',
      }),
    ).toEqual({
      SIS_CLIENT_SECRET: '***',
      FEDERATION_SECRET: '***',
      LEGACY_URL: 'https://user:***@legacy.example.org/',
      SIS_CLIENT_ID: 'north',
    });
  });
});

describe('the path a bundle’s school is registered at', () => {
  const org = (identifier: string, name = 'School', sourcedId = 'org-1') => ({ sourcedId, name, identifier });

  it.each([
    [org('NOOR-2'), '/noor-2'],
    [org('', 'Al-Amal School'), '/al-amal-school'],
    [org('', 'مدرسة الأمل', 'sch.1'), '/sch-1'],
    [org('École Saint-Éloi'), '/ecole-saint-eloi'],
    [org('status'), '/status-2'],
    [org(`${'x'.repeat(45)}`), `/${'x'.repeat(40)}`],
  ])('gives %j the path %s', (school, path) => {
    expect(schoolPathFor(school, new Set())).toBe(path);
  });

  it('adds -2, -3 ... after a path a school has', () => {
    expect(schoolPathFor(org('north'), new Set(['/north', '/north-2']))).toBe('/north-3');
  });
});
