import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { runClient } from './support/client-process';
import { testClientStack } from './support/client-suite';
import { SPEC_ENDPOINTS } from './support/spec-operations';

// Debian's Python, which has python3-zeep; the pyenv python3 first on PATH does not.
const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'zeep-client.py');

describeWithTools([PYTHON])('zeep (python3-zeep) reading the live WSDL', () => {
  testClientStack((baseUrl) => runClient(PYTHON, [CLIENT, baseUrl, ...SPEC_ENDPOINTS]));
});
