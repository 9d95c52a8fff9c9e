import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { runClient, runCommand, type ClientCall } from './support/client-process';
import { testClientStack } from './support/client-suite';
import { SPEC_ENDPOINTS } from './support/spec-operations';

const CLIENTS = join(__dirname, 'clients', 'java');
// Debian's libjaxws-java: wsimport's own jar, and the runtime; their manifests list the other jars.
const WSIMPORT_JAR = '/usr/share/java/jaxws-tools.jar';
const RUNTIME_JAR = '/usr/share/java/jaxws-rt.jar';

async function javaSourcesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.java')).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Runs wsimport on the live WSDL of all 16 endpoints, compiles the generated classes and the
 * client in one javac call, and runs the client, which calls every operation through the Soap and
 * Soap12 port of each service. Everything generated lives in a temporary directory.
 */
async function generateCompileAndRun(baseUrl: string): Promise<ClientCall[]> {
  const directory = await mkdtemp(join(tmpdir(), 'interop-jaxws-'));
  try {
    const sources = join(directory, 'sources');
    const classes = join(directory, 'classes');
    await Promise.all([mkdir(sources), mkdir(classes)]);
    const wsdlUrls = SPEC_ENDPOINTS.map((endpoint) => `${baseUrl}${endpoint}?WSDL`);
    await runCommand('java', ['-cp', WSIMPORT_JAR, join(CLIENTS, 'WsImportEach.java'), sources, ...wsdlUrls]);
    const generated = await javaSourcesUnder(sources);
    await runCommand('javac', ['-nowarn', '-cp', RUNTIME_JAR, '-d', classes, ...generated, join(CLIENTS, 'InteropClient.java')]);
    return await runClient('java', ['-cp', `${RUNTIME_JAR}:${classes}`, 'InteropClient', classes]);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describeWithTools(['wsimport', 'javac', 'java'])('JAX-WS (wsimport) client generated from the live WSDL', () => {
  testClientStack(generateCompileAndRun);
});
