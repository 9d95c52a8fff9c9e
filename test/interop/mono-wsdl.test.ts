import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { type ClientCall, runClient } from './support/client-process';
import { testClientStack, testRemoteClientStack } from './support/client-suite';
import { compileMonoClient } from './support/mono-build';
import { SPEC_ENDPOINTS } from './support/spec-operations';
import { withTemporaryDirectory } from './support/temporary-directory';

const CLIENT_SOURCE = join(__dirname, 'clients', 'mono-client.cs');

/** Compiles the proxies and runs them; given SERVICE_USER and SERVICE_SECRET, they become each proxy's Credentials. */
function runMonoClient(baseUrl: string, environment: NodeJS.ProcessEnv = process.env): Promise<ClientCall[]> {
  return withTemporaryDirectory('interop-mono-', async (directory) =>
    runClient('mono', [await compileMonoClient(directory, baseUrl, SPEC_ENDPOINTS, CLIENT_SOURCE)], {
      env: environment,
    }),
  );
}

describeWithTools(['wsdl', 'mcs', 'mono'])(
  'Mono wsdl proxies (the .NET ASMX client) generated from the live WSDL',
  () => {
    testClientStack((baseUrl) => runMonoClient(baseUrl));
  },
);

describeWithTools(['wsdl', 'mcs', 'mono'])('Mono wsdl proxies from another machine with .NET Credentials', () => {
  testRemoteClientStack((baseUrl, credentials) => runMonoClient(baseUrl, { ...process.env, ...credentials }), {
    credential: 'basic',
    answersChallenge: true,
  });
});
