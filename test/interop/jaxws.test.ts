import { describeWithTools } from '../support/tools';
import { testClientStack } from './support/client-suite';
import { compileJaxwsClient, runJaxwsClient } from './support/jaxws-build';
import { SPEC_ENDPOINTS } from './support/spec-operations';
import { withTemporaryDirectory } from './support/temporary-directory';

describeWithTools(['wsimport', 'javac', 'java'])('JAX-WS (wsimport) client generated from the live WSDL', () => {
  // InteropClient finds the generated services in the classes directory and calls every operation
  // through the Soap and Soap12 port of each.
  testClientStack((baseUrl) =>
    withTemporaryDirectory('interop-jaxws-', async (directory) => {
      const classes = await compileJaxwsClient(directory, baseUrl, SPEC_ENDPOINTS, 'InteropClient');
      return runJaxwsClient(classes, 'InteropClient', [classes]);
    }),
  );
});
