import { describeWithTools } from '../support/tools';
import { writeGsoapClientSource } from './gsoap-client-source';
import { type ClientCall, runClient } from './support/client-process';
import { testClientStack, testRemoteClientStack } from './support/client-suite';
import { buildGsoapClients } from './support/gsoap-build';
import { SPEC_ENDPOINTS } from './support/spec-operations';
import { withTemporaryDirectory } from './support/temporary-directory';

/**
 * Builds a client per SOAP version and runs both; given SERVICE_USER and SERVICE_SECRET, they set
 * userid and passwd.
 */
function runGsoapClients(baseUrl: string, environment: NodeJS.ProcessEnv = process.env): Promise<ClientCall[]> {
  return withTemporaryDirectory('interop-gsoap-', async (directory) => {
    const programs = await buildGsoapClients(directory, baseUrl, SPEC_ENDPOINTS, writeGsoapClientSource);
    return (await Promise.all(programs.map((program) => runClient(program, [], { env: environment })))).flat();
  });
}

describeWithTools(['wsdl2h', 'soapcpp2', 'g++', 'pkg-config'])(
  'gSOAP (wsdl2h and soapcpp2) client generated from the live WSDL',
  () => {
    testClientStack((baseUrl) => runGsoapClients(baseUrl));
  },
);

describeWithTools(['wsdl2h', 'soapcpp2', 'g++', 'pkg-config'])(
  'gSOAP from another machine with userid and passwd',
  () => {
    testRemoteClientStack((baseUrl, credentials) => runGsoapClients(baseUrl, { ...process.env, ...credentials }), {
      credential: 'basic',
    });
  },
);
