import { describeWithTools } from '../support/tools';
import { compileJaxwsClient, runJaxwsClient } from './support/jaxws-build';
import { withTemporaryDirectory } from './support/temporary-directory';
import { TYPED_ENDPOINTS, testTypedClientStack, type TypedClientCall } from './support/typed-client-suite';

describeWithTools(['wsimport', 'javac', 'java'])(
  'JAX-WS (wsimport) client reading typed results from the live typed WSDL',
  () => {
    testTypedClientStack(({ baseUrl, callArguments, environment }) =>
      withTemporaryDirectory('interop-jaxws-typed-', async (directory) => {
        const classes = await compileJaxwsClient(directory, baseUrl, TYPED_ENDPOINTS, 'TypedClient');
        return runJaxwsClient<TypedClientCall>(classes, 'TypedClient', callArguments, { env: environment });
      }),
    );
  },
);
