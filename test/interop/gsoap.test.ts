import { describeWithTools } from '../support/tools';
import { writeGsoapClientSource } from './gsoap-client-source';
import { runClient } from './support/client-process';
import { testClientStack } from './support/client-suite';
import { buildGsoapClients } from './support/gsoap-build';
import { SPEC_ENDPOINTS } from './support/spec-operations';
import { withTemporaryDirectory } from './support/temporary-directory';

describeWithTools(['wsdl2h', 'soapcpp2', 'g++', 'pkg-config'])(
  'gSOAP (wsdl2h and soapcpp2) client generated from the live WSDL',
  () => {
    testClientStack((baseUrl) =>
      withTemporaryDirectory('interop-gsoap-', async (directory) => {
        const programs = await buildGsoapClients(directory, baseUrl, SPEC_ENDPOINTS, writeGsoapClientSource);
        return (await Promise.all(programs.map((program) => runClient(program, [])))).flat();
      }),
    );
  },
);
