import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { runClient } from './support/client-process';
import { compileMonoClient } from './support/mono-build';
import { withTemporaryDirectory } from './support/temporary-directory';
import { TYPED_ENDPOINTS, testTypedClientStack, type TypedClientCall } from './support/typed-client-suite';

const CLIENT_SOURCE = join(__dirname, 'clients', 'mono-typed-client.cs');

describeWithTools(['wsdl', 'mcs', 'mono'])(
  'Mono wsdl proxies (the .NET ASMX client) reading typed results from the live typed WSDL',
  () => {
    testTypedClientStack(({ baseUrl, callArguments, environment }) =>
      withTemporaryDirectory('interop-mono-typed-', async (directory) => {
        const program = await compileMonoClient(directory, baseUrl, TYPED_ENDPOINTS, CLIENT_SOURCE);
        return runClient<TypedClientCall>('mono', [program, ...callArguments], { env: environment });
      }),
    );
  },
);
