import { parseRetryAfter, retryDelayMs } from '../../src/delivery/backoff';
import { payloadSealer } from '../../src/lib/payload-sealer';
import { isE164, phoneNumberE164, readPhoneNumber, regionOfCallingCode } from '../../src/lib/phone-number';
import { normaliseBaseUrl } from '../../src/lib/school-address';

describe("phone numbers read for the school's region", () => {
  test.each([
    ['966', 'SA'],
    ['1', 'US'],
    ['44', 'GB'],
    ['7', 'RU'],
    ['999', undefined],
  ])('calling code %s is the region %s', (code, region) => {
    expect(regionOfCallingCode(code)).toBe(region);
  });

  test.each([
    ['+966 50 123 4567', '+966501234567'],
    ['00966501234567', '+966501234567'],
    ['050-123-4567', '+966501234567'],
    ['(050) 123.4567', '+966501234567'],
    ['501234567', '+966501234567'],
    ['٠٥٠١٢٣٤٥٦٧', '+966501234567'],
    ['+1 202 555 0123', '+12025550123'],
    ['+44 20 7946 0958', '+442079460958'],
  ])('%s is the valid number %s', (text, expected) => {
    expect(phoneNumberE164(text, '966')).toBe(expected);
  });

  test.each([
    // A US number written without its country code: never given 966.
    '(950) 336 6601',
    '12345',
    '+1 555 010 0123',
    '+966 50\u00a0123',
    '+966 50 123 45678',
  ])('%p is no valid number, and gets no E.164 form', (text) => {
    expect(readPhoneNumber(text, '966')?.valid).toBe(false);
    expect(phoneNumberE164(text, '966')).toBeUndefined();
  });

  test.each(['', 'phone', '+', '+0501234567'])('%p is no phone number at all', (text) => {
    expect(readPhoneNumber(text, '966')).toBeUndefined();
  });

  test('the same national number is read for the region of another calling code', () => {
    expect(phoneNumberE164('(202) 555-0123', '1')).toBe('+12025550123');
    expect(phoneNumberE164('020 7946 0958', '44')).toBe('+442079460958');
    expect(phoneNumberE164('020 7946 0958', '966')).toBeUndefined();
  });

  test.each([
    ['+966501234567', true],
    ['+12025550123', true],
    ['(950) 336 6601', false],
    ['0501234567', false],
    ['+0501234567', false],
    ['+1234567890123456', false],
  ])('%p is E.164: %p', (text, expected) => {
    expect(isE164(text)).toBe(expected);
  });
});

describe('school base URLs', () => {
  test.each([
    ['HTTP://School.Example:80/', 'http://school.example'],
    ['https://school.example:443/services//', 'https://school.example/services'],
    ['http://127.0.0.1:8080/x/', 'http://127.0.0.1:8080/x'],
  ])('%s is %s', (text, expected) => {
    expect(normaliseBaseUrl(text)).toBe(expected);
  });

  test.each([
    'school.example',
    'ftp://school.example',
    'http://user:pw@school.example',
    'http://school.example/?a=1',
    'http://school.example/#x',
    'file:///etc/passwd',
  ])('%p is refused', (text) => {
    expect(normaliseBaseUrl(text)).toBeUndefined();
  });
});

describe('retry timing', () => {
  test('the delay grows exponentially with full jitter, up to the maximum', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, 1000, 5000, undefined, () => 1))).toEqual([
      1000, 2000, 4000, 5000,
    ]);
    expect(retryDelayMs(3, 1000, 5000, undefined, () => 0.5)).toBe(2000);
    expect(retryDelayMs(3, 1000, 5000, undefined, () => 0)).toBe(0);
  });

  test('never earlier than Retry-After', () => {
    expect(retryDelayMs(1, 1000, 5000, 30_000, () => 1)).toBe(30_000);
  });

  test('Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect([parseRetryAfter(undefined, now), parseRetryAfter('soon', now)]).toEqual([undefined, undefined]);
  });
});

describe('sealed payloads', () => {
  const sealer = payloadSealer(Buffer.alloc(32, 7));

  test('are not readable, and open to the text sealed', () => {
    const sealed = sealer.seal('verification code 482913');
    expect(sealed).not.toContain('482913');
    expect(Buffer.from(sealed).toString('latin1')).not.toContain('verification');
    expect(sealer.open(sealed)).toBe('verification code 482913');
  });

  test('refuse a payload changed or sealed with another key', () => {
    const sealed = sealer.seal('text');
    expect(() => payloadSealer(Buffer.alloc(32, 8)).open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64');
    expect(() => sealer.open(parts.join('.'))).toThrow();
  });
});
