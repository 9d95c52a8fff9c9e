import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand, type SoapVersion } from './client-process';
import { VERSIONS } from './soap-versions';

const CLIENT_HEADERS = join(__dirname, '..', 'clients', 'gsoap');
// Where Debian's gsoap package keeps soap12.h, which wsdl2h's header imports.
const GSOAP_IMPORTS = '/usr/share/gsoap/import';
const SOAPCPP2_VERSION_OPTION: Record<SoapVersion, string> = { '1.1': '-1', '1.2': '-2' };

/** Writes a build's C++ main program into its soapcpp2 output directory and returns the file's path. */
export type GsoapClientSourceWriter = (directory: string, version: SoapVersion) => Promise<string>;

/**
 * soapcpp2 for one SOAP version (-1 or -2 forces it on every proxy), client-side C++ proxies only
 * (-j -C), without sample messages, WSDL copies or client library (-x -w -L); then the client
 * source, compiled against libgsoap++ with the flags the library was built with (they change the
 * layout of struct soap). Returns the program.
 */
async function buildForVersion(
  header: string,
  directory: string,
  version: SoapVersion,
  writeSource: GsoapClientSourceWriter,
): Promise<string> {
  await mkdir(directory);
  await runCommand('soapcpp2', [
    '-j',
    '-C',
    SOAPCPP2_VERSION_OPTION[version],
    '-x',
    '-w',
    '-L',
    `-I${GSOAP_IMPORTS}`,
    `-d${directory}`,
    header,
  ]);
  const source = await writeSource(directory, version);
  const libraryFlags = (await runCommand('pkg-config', ['--cflags', '--libs', 'gsoap++'])).trim().split(/\s+/);
  const program = join(directory, 'interop-client');
  await runCommand('g++', [
    '-O0',
    '-w',
    `-I${directory}`,
    `-I${CLIENT_HEADERS}`,
    source,
    '-o',
    program,
    ...libraryFlags,
  ]);
  return program;
}

/**
 * One wsdl2h over the live WSDL of the endpoints (it numbers the bindings' prefixes svc, svc2,
 * ... so their names do not clash), then a SOAP 1.1 and a SOAP 1.2 build side by side in
 * `directory`, one per core. Returns the two programs, the SOAP 1.1 one first.
 */
export async function buildGsoapClients(
  directory: string,
  baseUrl: string,
  endpoints: readonly string[],
  writeSource: GsoapClientSourceWriter,
): Promise<string[]> {
  const header = join(directory, 'svc.h');
  const wsdlUrls = endpoints.map((endpoint) => `${baseUrl}${endpoint}?WSDL`);
  await runCommand('wsdl2h', ['-Nsvc', '-o', header, ...wsdlUrls], { cwd: directory });
  return Promise.all(
    VERSIONS.map((version) => buildForVersion(header, join(directory, `soap${version}`), version, writeSource)),
  );
}
