import { loadConfig } from '../../src/config/service-config';
import { baseUrlFor } from '../../src/wire/base-url';
import { hostNameOf } from '../../src/wire/host-name';

/**
 * The host a request was sent to, as a district matches it against a school's `--host`, and the
 * addresses a school names on its own host and elsewhere; the district's settings and their bounds.
 * Over HTTP: test/district/host-routing.test.ts.
 */

describe('the host a request was sent to', () => {
  it.each([
    ['south.example.org', 'south.example.org'],
    ['South.Example.ORG', 'south.example.org'],
    ['south.example.org:8080', 'south.example.org'],
    ['south.example.org.', 'south.example.org'],
    ['south.example.org.:443', 'south.example.org'],
  ])('reads %j as %j', (header, name) => {
    expect(hostNameOf(header)).toBe(name);
  });

  it.each([
    [undefined],
    [''],
    ['[::1]:8080'],
    ['south.example.org/x'],
    ['south.example.org:80:80'],
    ['south..example.org'],
    ['<b>.example.org'],
    [`${'a'.repeat(300)}.org`],
  ])('reads no host name from %j', (header) => {
    expect(hostNameOf(header)).toBeUndefined();
  });
});

describe('the addresses a school of a district names', () => {
  const school = { publicBaseUrl: undefined, port: 8080, pathPrefix: '/south', hostName: 'south.example.org' };

  it('names the bare paths on its own host, as the caller wrote the host', () => {
    expect(baseUrlFor('South.Example.org:8443', school)).toBe('http://South.Example.org:8443');
  });

  it('names its path on any other host', () => {
    expect(baseUrlFor('district.example.org', school)).toBe('http://district.example.org/south');
    expect(baseUrlFor('north.example.org', school)).toBe('http://north.example.org/south');
  });

  it('takes https from PUBLIC_BASE_URL on its own host, and PUBLIC_BASE_URL itself elsewhere', () => {
    const behindTls = { ...school, publicBaseUrl: 'https://district.example.org' };
    expect(baseUrlFor('south.example.org', behindTls)).toBe('https://south.example.org');
    expect(baseUrlFor('127.0.0.1:8080', behindTls)).toBe('https://district.example.org/south');
  });
});

describe('the district settings', () => {
  it('defaults to 200 schools open and 600 idle seconds', () => {
    expect(loadConfig({}).schools).toEqual({ openMax: 200, idleCloseMs: 600_000 });
  });

  it.each([
    ['SCHOOLS_OPEN_MAX', '0'],
    ['SCHOOLS_OPEN_MAX', '1001'],
    ['SCHOOLS_IDLE_CLOSE_SECONDS', '0'],
    ['SCHOOLS_IDLE_CLOSE_SECONDS', '86401'],
    ['SCHOOLS_IDLE_CLOSE_SECONDS', '1.5'],
  ])('refuses %s=%s, naming the setting', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
