import { describeWithTools } from '../support/tools';
import type { ClientCall } from './support/client-process';
import { testClientStack, testRemoteClientStack } from './support/client-suite';
import { compileJaxwsClient, runJaxwsClient } from './support/jaxws-build';
import { SPEC_ENDPOINTS } from './support/spec-operations';
import { withTemporaryDirectory } from './support/temporary-directory';

/**
 * InteropClient finds the generated services in the classes directory and calls every operation
 * through the Soap and Soap12 port of each; given SERVICE_USER and SERVICE_SECRET it sets them as
 * the ports' BindingProvider user name and password.
 */
function runInteropClient(baseUrl: string, environment: NodeJS.ProcessEnv = process.env): Promise<ClientCall[]> {
  return withTemporaryDirectory('interop-jaxws-', async (directory) => {
    const classes = await compileJaxwsClient(directory, baseUrl, SPEC_ENDPOINTS, 'InteropClient');
    return runJaxwsClient(classes, 'InteropClient', [classes], { env: environment });
  });
}

describeWithTools(['wsimport', 'javac', 'java'])('JAX-WS (wsimport) client generated from the live WSDL', () => {
  testClientStack((baseUrl) => runInteropClient(baseUrl));
});

describeWithTools(['wsimport', 'javac', 'java'])('JAX-WS from another machine with BindingProvider credentials', () => {
  testRemoteClientStack((baseUrl, credentials) => runInteropClient(baseUrl, { ...process.env, ...credentials }), {
    credential: 'basic',
  });
});
