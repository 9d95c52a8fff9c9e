import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runClient, runCommand, type ClientCall, type ProgramOptions } from './client-process';

const CLIENTS = join(__dirname, '..', 'clients', 'java');
// Debian's libjaxws-java: wsimport's own jar, and the runtime; their manifests list the other jars.
const WSIMPORT_JAR = '/usr/share/java/jaxws-tools.jar';
const RUNTIME_JAR = '/usr/share/java/jaxws-rt.jar';
// Each JVM here lives a few seconds, too short for the optimising JIT compiler to pay off: with
// the quick one alone, wsimport, javac and the client take about half as long.
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1'];

async function javaSourcesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.java'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Runs wsimport on the live WSDL of the endpoints (each into its own package, see WsImportEach),
 * and compiles the generated classes, the client class `clientClass` of test/interop/clients/java
 * and the JsonText it reports with, in one javac call, all in `directory`. Returns the directory
 * of the compiled classes.
 */
export async function compileJaxwsClient(
  directory: string,
  baseUrl: string,
  endpoints: readonly string[],
  clientClass: string,
): Promise<string> {
  const sources = join(directory, 'sources');
  const classes = join(directory, 'classes');
  await Promise.all([mkdir(sources), mkdir(classes)]);
  const wsdlUrls = endpoints.map((endpoint) => `${baseUrl}${endpoint}?WSDL`);
  await runCommand('java', [
    ...JVM_OPTIONS,
    '-cp',
    WSIMPORT_JAR,
    join(CLIENTS, 'WsImportEach.java'),
    sources,
    ...wsdlUrls,
  ]);
  const generated = await javaSourcesUnder(sources);
  const client = [join(CLIENTS, `${clientClass}.java`), join(CLIENTS, 'JsonText.java')];
  await runCommand('javac', [
    ...JVM_OPTIONS.map((option) => `-J${option}`),
    '-nowarn',
    '-cp',
    RUNTIME_JAR,
    '-d',
    classes,
    ...generated,
    ...client,
  ]);
  return classes;
}

/** Runs a compiled client class with the JAX-WS runtime and parses its report lines. */
export function runJaxwsClient<Call = ClientCall>(
  classes: string,
  clientClass: string,
  programArguments: readonly string[],
  options: ProgramOptions = {},
): Promise<Call[]> {
  return runClient<Call>(
    'java',
    [...JVM_OPTIONS, '-cp', `${RUNTIME_JAR}:${classes}`, clientClass, ...programArguments],
    options,
  );
}
