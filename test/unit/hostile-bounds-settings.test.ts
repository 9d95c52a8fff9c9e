import { readSisSettings } from '../../src/config/sis-settings';
import { loadConfig } from '../../src/config/service-config';

/** The bounds added against hostile legacy services, callers and SIS providers: defaults, and values refused. */
describe('settings of the bounds on hostile peers', () => {
  test('defaults: 32 legacy calls a caller, 8 an address, 50,000 elements an answer, an hour a sync', () => {
    const { migration } = loadConfig({});
    expect([migration.legacyInFlightPerCaller, migration.legacyInFlightPerAddress]).toEqual([32, 8]);
    expect(migration.answerBudgets).toMatchObject({ xmlElements: 50_000, jsonKeys: 50_000, xmlDepth: 32 });
    expect(readSisSettings({}).timeLimitMs).toBe(3_600_000);
  });

  test('the depth of an answer follows REQUEST_MAX_DEPTH', () => {
    expect(loadConfig({ REQUEST_MAX_DEPTH: '64' }).migration.answerBudgets.xmlDepth).toBe(64);
  });

  test.each([
    ['LEGACY_IN_FLIGHT_PER_CALLER', '0'],
    ['LEGACY_IN_FLIGHT_PER_ADDRESS', '100000'],
    ['SHADOW_MAX_ELEMENTS', '10'],
  ])('%s=%s stops the service at start', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  test.each(['0', '604801', 'an hour'])('SIS_SYNC_TIME_LIMIT_SECONDS=%s is refused', (value) => {
    expect(() => readSisSettings({ SIS_SYNC_TIME_LIMIT_SECONDS: value })).toThrow('SIS_SYNC_TIME_LIMIT_SECONDS');
  });
});
