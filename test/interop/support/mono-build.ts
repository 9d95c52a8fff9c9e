import { join } from 'node:path';
import { runCommand } from './client-process';

/**
 * Generates the proxies of the endpoints from their live WSDL, once per SOAP version (in namespace
 * Soap11, and with -protocol:SOAP12 in Soap12, so both sets compile together), builds them with
 * the client source in one mcs call in `directory`, and returns the program to run with mono.
 */
export async function compileMonoClient(
  directory: string,
  baseUrl: string,
  endpoints: readonly string[],
  clientSource: string,
): Promise<string> {
  const wsdlUrls = endpoints.map((endpoint) => `${baseUrl}${endpoint}?WSDL`);
  const soap11Source = join(directory, 'soap11.cs');
  const soap12Source = join(directory, 'soap12.cs');
  const program = join(directory, 'interop.exe');
  await Promise.all([
    runCommand('wsdl', ['-nologo', '-protocol:SOAP', '-n:Soap11', `-out:${soap11Source}`, ...wsdlUrls]),
    runCommand('wsdl', ['-nologo', '-protocol:SOAP12', '-n:Soap12', `-out:${soap12Source}`, ...wsdlUrls]),
  ]);
  await runCommand('mcs', [
    '-nologo',
    '-r:System.Web.Services',
    '-r:System.Web.Extensions',
    `-out:${program}`,
    soap11Source,
    soap12Source,
    clientSource,
  ]);
  return program;
}
