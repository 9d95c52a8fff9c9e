import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { startTestService } from '../support/service';
import { describeWithTools } from '../support/tools';
import { runClient } from './support/client-process';
import { compileMonoClient } from './support/mono-build';
import { withTemporaryDirectory } from './support/temporary-directory';

const CLIENT_SOURCE = join(__dirname, 'clients', 'mono-value-result-client.cs');

describeWithTools(['wsdl', 'mcs', 'mono'])(
  "Mono wsdl proxies (the .NET ASMX client) return a typed value-type result as the method's value",
  () => {
    let service: RunningService;
    beforeAll(async () => {
      service = await startTestService({ CONTRACT: 'typed' });
    });
    afterAll(() => service.close());

    test('SendMarkNotes returns int, without a Specified flag, and the proxies read the count', async () => {
      const { source, calls } = await withTemporaryDirectory('interop-mono-value-', async (directory) => {
        const program = await compileMonoClient(directory, service.url, ['/NotificationNotes.asmx'], CLIENT_SOURCE);
        return {
          source: await readFile(join(directory, 'soap11.cs'), 'utf8'),
          calls: await runClient<{ version: string; result: number }>('mono', [
            program,
            '999999',
            '999999',
            service.url,
          ]),
        };
      });
      expect(source).toMatch(/public int SendMarkNotes\(string id, string id_class, string baseUrlSchool\)/);
      expect(source).not.toContain('Specified');
      expect(calls).toEqual([
        { version: '1.1', result: 0 },
        { version: '1.2', result: 0 },
      ]);
    });
  },
);
