import { describeWithTools } from '../support/tools';
import { writeGsoapTypedClientSource } from './gsoap-typed-client-source';
import { runClient } from './support/client-process';
import { buildGsoapClients } from './support/gsoap-build';
import { withTemporaryDirectory } from './support/temporary-directory';
import { TYPED_ENDPOINTS, testTypedClientStack, type TypedClientCall } from './support/typed-client-suite';

describeWithTools(['wsdl2h', 'soapcpp2', 'g++', 'pkg-config'])(
  'gSOAP (wsdl2h and soapcpp2) client reading typed results from the live typed WSDL',
  () => {
    testTypedClientStack(({ baseUrl, callArguments, environment }) =>
      withTemporaryDirectory('interop-gsoap-typed-', async (directory) => {
        const programs = await buildGsoapClients(directory, baseUrl, TYPED_ENDPOINTS, writeGsoapTypedClientSource);
        return (
          await Promise.all(
            programs.map((program) => runClient<TypedClientCall>(program, callArguments, { env: environment })),
          )
        ).flat();
      }),
    );
  },
);
