import { BasicAuthSecurity, type Client, createClientAsync, WSSecurity } from 'soap';
import type { ClientCall, SoapVersion } from './client-process';
import type { CredentialEnvironment } from './client-suite';
import { SAMPLE_ENVIRONMENT } from './sample-arguments';

/**
 * node-soap's own client, the one Node.js integrators use, run in the test process. It reads the
 * live WSDL of each endpoint. node-soap 1.13 ignores a port's binding when it writes a call: the
 * envelope namespace and headers come from the client's forceSoap12Headers option alone (without
 * it, the XSoap12 port sends a SOAP 1.1 envelope and a SOAPAction header; with it, every port sends
 * SOAP 1.2 with the action in the Content-Type). So each endpoint gets a client per version, called
 * through the port ASMX names for that version (XSoap, XSoap12), never through the methods node-soap
 * also puts on the client itself, which are whichever port it defined last.
 */

const PORT_SUFFIX: Readonly<Record<SoapVersion, string>> = { '1.1': 'Soap', '1.2': 'Soap12' };

/** A port's method, as node-soap makes it: arguments and a Node-style callback. */
type PortMethod = (args: unknown, callback: (error: unknown, result: unknown) => void) => void;

/** A client of one endpoint for one SOAP version, with the caller's credentials if any. */
export async function nodeSoapClient(
  wsdlUrl: string,
  version: SoapVersion,
  credentials?: CredentialEnvironment,
): Promise<{ client: Client; service: string; port: string }> {
  const client = await createClientAsync(wsdlUrl, { forceSoap12Headers: version === '1.2' });
  if (credentials?.SERVICE_USER) {
    const { SERVICE_USER: user, SERVICE_SECRET: secret } = credentials;
    client.setSecurity(
      credentials.SERVICE_WS_SECURITY === 'digest'
        ? new WSSecurity(user, secret, { passwordType: 'PasswordDigest', hasNonce: true, hasTimeStamp: false })
        : new BasicAuthSecurity(user, secret),
    );
  }
  const [service] = Object.keys(client.describe());
  return { client, service, port: `${service}${PORT_SUFFIX[version]}` };
}

/** Calls an operation of the client's port; resolves with node-soap's decoding of the response element. */
export function callPort(
  client: Client,
  service: string,
  port: string,
  operation: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const method = (client as unknown as Record<string, Record<string, Record<string, PortMethod>>>)[service][port][
    operation
  ];
  return new Promise((resolve, reject) =>
    method(args, (error, result) => (error ? reject(error) : resolve(result as Record<string, unknown> | null))),
  );
}

/** Each parameter's sample value: "1" for a string, 1 for an int, SAMPLE_<name> where its rules need a form. */
function sampleArguments(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([name]) => !name.startsWith('targetNS'))
      .map(([name, type]) => [name, SAMPLE_ENVIRONMENT[`SAMPLE_${name}`] ?? (String(type).endsWith('int') ? 1 : '1')]),
  );
}

function failure(error: unknown): string {
  const fault = (error as { root?: { Envelope?: { Body?: { Fault?: unknown } } } }).root?.Envelope?.Body?.Fault;
  return fault ? JSON.stringify(fault) : error instanceof Error ? error.message : String(error);
}

/** Every operation of every endpoint over SOAP 1.1 and 1.2, one report per call, as other stacks' programs print. */
export async function callEveryOperation(
  baseUrl: string,
  endpoints: readonly string[],
  credentials?: CredentialEnvironment,
): Promise<ClientCall[]> {
  const calls: ClientCall[] = [];
  for (const endpoint of endpoints) {
    for (const version of ['1.1', '1.2'] as const) {
      const { client, service, port } = await nodeSoapClient(`${baseUrl}${endpoint}?WSDL`, version, credentials);
      const operations = client.describe()[service][port] as Record<string, { input: Record<string, unknown> }>;
      for (const [operation, { input }] of Object.entries(operations)) {
        try {
          const response = await callPort(client, service, port, operation, sampleArguments(input ?? {}));
          const result = response?.[`${operation}Result`];
          calls.push({ endpoint, operation, version, ok: true, result: typeof result === 'string' ? result : null });
        } catch (error) {
          calls.push({ endpoint, operation, version, ok: false, error: failure(error) });
        }
      }
    }
  }
  return calls;
}
