import { testClientStack, testRemoteClientStack } from './support/client-suite';
import { callEveryOperation } from './support/node-soap-client';
import { testWireActions } from './support/soap-actions';
import { SPEC_ENDPOINTS, SPEC_OPERATIONS } from './support/spec-operations';

/** node-soap's client (the npm package soap, which also reads the service's own WSDL at start). */
describe("node-soap's client reading the live WSDL", () => {
  const running = testClientStack((baseUrl) => callEveryOperation(baseUrl, SPEC_ENDPOINTS));
  // node-soap writes the action itself (not from the port's binding): hold it to what went over the wire.
  testWireActions(() => running.proxy.requests, SPEC_OPERATIONS);
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
