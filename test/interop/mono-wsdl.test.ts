import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { runClient } from './support/client-process';
import { testClientStack } from './support/client-suite';
import { compileMonoClient } from './support/mono-build';
import { SPEC_ENDPOINTS } from './support/spec-operations';
import { withTemporaryDirectory } from './support/temporary-directory';

const CLIENT_SOURCE = join(__dirname, 'clients', 'mono-client.cs');

describeWithTools(['wsdl', 'mcs', 'mono'])(
  'Mono wsdl proxies (the .NET ASMX client) generated from the live WSDL',
  () => {
    testClientStack((baseUrl) =>
      withTemporaryDirectory('interop-mono-', async (directory) =>
        runClient('mono', [await compileMonoClient(directory, baseUrl, SPEC_ENDPOINTS, CLIENT_SOURCE)]),
      ),
    );
  },
);
