import type { RunningService } from '../../src/service';
import { remoteFetch } from '../support/remote-client';
import { startTestService } from '../support/service';

/**
 * An operator who narrows LOCAL_NETWORKS narrows who reads the figures too: METRICS_NETWORKS,
 * unset, is the LOCAL_NETWORKS. Another loopback address stands for a machine that was local before.
 */
describe('METRICS_NETWORKS unset', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startTestService({ LOCAL_NETWORKS: '127.0.0.1/32' });
  });
  afterAll(() => service.close());

  test.each(['/metrics', '/status', '/status.json'])('%s follows a narrowed LOCAL_NETWORKS', async (path) => {
    const refused = await remoteFetch(`${service.url}${path}`);
    expect([refused.status, refused.text]).toEqual([403, `${path} is answered only to METRICS_NETWORKS.\n`]);
    expect((await fetch(`${service.url}${path}`)).status).toBe(200);
  });
});
