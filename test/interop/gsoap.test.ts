import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { writeGsoapClientSource } from './gsoap-client-source';
import { runClient, runCommand, type ClientCall, type SoapVersion } from './support/client-process';
import { testClientStack } from './support/client-suite';
import { SPEC_ENDPOINTS } from './support/spec-operations';

const CALL_REPORT_DIRECTORY = join(__dirname, 'clients', 'gsoap');
// Where Debian's gsoap package keeps soap12.h, which wsdl2h's header imports.
const GSOAP_IMPORTS = '/usr/share/gsoap/import';
const SOAPCPP2_VERSION_OPTION: Record<SoapVersion, string> = { '1.1': '-1', '1.2': '-2' };

/**
 * soapcpp2 for one SOAP version (-1 or -2 forces it on every proxy), client-side C++ proxies only
 * (-j -C), without sample messages, WSDL copies or client library (-x -w -L); then the generated
 * calls, compiled against libgsoap++ with the flags the library was built with (they change the
 * layout of struct soap), and run.
 */
async function buildAndRun(header: string, directory: string, version: SoapVersion): Promise<ClientCall[]> {
  await mkdir(directory);
  await runCommand('soapcpp2', ['-j', '-C', SOAPCPP2_VERSION_OPTION[version], '-x', '-w', '-L', `-I${GSOAP_IMPORTS}`, `-d${directory}`, header]);
  const source = await writeGsoapClientSource(directory, version);
  const libraryFlags = (await runCommand('pkg-config', ['--cflags', '--libs', 'gsoap++'])).trim().split(/\s+/);
  const program = join(directory, 'interop-client');
  await runCommand('g++', ['-O0', '-w', `-I${directory}`, `-I${CALL_REPORT_DIRECTORY}`, source, '-o', program, ...libraryFlags]);
  return runClient(program, []);
}

/**
 * One wsdl2h over the live WSDL of all 16 endpoints (it numbers the bindings' prefixes svc, svc2,
 * ... so their names do not clash), then a SOAP 1.1 and a SOAP 1.2 build side by side, one per
 * core. Everything generated lives in a temporary directory.
 */
async function generateCompileAndRun(baseUrl: string): Promise<ClientCall[]> {
  const directory = await mkdtemp(join(tmpdir(), 'interop-gsoap-'));
  try {
    const header = join(directory, 'svc.h');
    const wsdlUrls = SPEC_ENDPOINTS.map((endpoint) => `${baseUrl}${endpoint}?WSDL`);
    await runCommand('wsdl2h', ['-Nsvc', '-o', header, ...wsdlUrls], { cwd: directory });
    const versions: SoapVersion[] = ['1.1', '1.2'];
    const calls = await Promise.all(versions.map((version) => buildAndRun(header, join(directory, `soap${version}`), version)));
    return calls.flat();
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describeWithTools(['wsdl2h', 'soapcpp2', 'g++', 'pkg-config'])('gSOAP (wsdl2h and soapcpp2) client generated from the live WSDL', () => {
  testClientStack(generateCompileAndRun);
});
