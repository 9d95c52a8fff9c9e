import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { runClient } from './support/client-process';
import { testTypedClientStack, type TypedClientCall } from './support/typed-client-suite';

// Debian's Python, which has python3-zeep; the pyenv python3 first on PATH does not.
const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'zeep-typed-client.py');

describeWithTools([PYTHON])('zeep (python3-zeep) reading typed results from the live typed WSDL', () => {
  testTypedClientStack(({ baseUrl, callArguments, environment }) =>
    runClient<TypedClientCall>(PYTHON, [CLIENT, baseUrl, ...callArguments], { env: environment }),
  );
});
