import { testClientStack, testRemoteClientStack } from './support/client-suite';
import { callEveryOperation } from './support/node-soap-client';
import { SPEC_ENDPOINTS } from './support/spec-operations';

/** node-soap's client (the npm package soap, which also reads the service's own WSDL at start). */
describe("node-soap's client reading the live WSDL", () => {
  testClientStack((baseUrl) => callEveryOperation(baseUrl, SPEC_ENDPOINTS));
});

describe("node-soap's client from another machine with BasicAuthSecurity", () => {
  testRemoteClientStack((baseUrl, credentials) => callEveryOperation(baseUrl, SPEC_ENDPOINTS, credentials), {
    credential: 'basic',
  });
});

describe("node-soap's client from another machine with WSSecurity (PasswordDigest)", () => {
  testRemoteClientStack((baseUrl, credentials) => callEveryOperation(baseUrl, SPEC_ENDPOINTS, credentials), {
    credential: 'ws-digest',
  });
});
