import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { runClient, runCommand, type ClientCall } from './support/client-process';
import { testClientStack } from './support/client-suite';
import { SPEC_ENDPOINTS } from './support/spec-operations';

const CLIENT_SOURCE = join(__dirname, 'clients', 'mono-client.cs');

/**
 * Generates the proxies of all 16 endpoints from their live WSDL, once per SOAP version (each in
 * its own namespace so both sets compile together), builds them with the client in one mcs call,
 * and runs the program. Everything generated lives in a temporary directory.
 */
async function generateCompileAndRun(baseUrl: string): Promise<ClientCall[]> {
  const directory = await mkdtemp(join(tmpdir(), 'interop-mono-'));
  try {
    const wsdlUrls = SPEC_ENDPOINTS.map((endpoint) => `${baseUrl}${endpoint}?WSDL`);
    const soap11Source = join(directory, 'soap11.cs');
    const soap12Source = join(directory, 'soap12.cs');
    const program = join(directory, 'interop.exe');
    await Promise.all([
      runCommand('wsdl', ['-nologo', '-protocol:SOAP', '-n:Soap11', `-out:${soap11Source}`, ...wsdlUrls]),
      runCommand('wsdl', ['-nologo', '-protocol:SOAP12', '-n:Soap12', `-out:${soap12Source}`, ...wsdlUrls]),
    ]);
    await runCommand('mcs', ['-nologo', '-r:System.Web.Services', '-r:System.Web.Extensions', `-out:${program}`, soap11Source, soap12Source, CLIENT_SOURCE]);
    return await runClient('mono', [program]);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describeWithTools(['wsdl', 'mcs', 'mono'])('Mono wsdl proxies (the .NET ASMX client) generated from the live WSDL', () => {
  testClientStack(generateCompileAndRun);
});
