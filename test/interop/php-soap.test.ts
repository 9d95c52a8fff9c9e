import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { runClient } from './support/client-process';
import { testClientStack, testRemoteClientStack } from './support/client-suite';
import { SPEC_ENDPOINTS } from './support/spec-operations';

const CLIENT = join(__dirname, 'clients', 'php-soap-client.php');
// Warnings go to standard error so that they cannot corrupt the JSON lines on standard output.
const PHP_OPTIONS = ['-d', 'display_errors=stderr', '-d', 'error_reporting=E_ALL'];

describeWithTools(['php'])('PHP SoapClient (php-soap) reading the live WSDL', () => {
  testClientStack((baseUrl) => runClient('php', [...PHP_OPTIONS, CLIENT, baseUrl, ...SPEC_ENDPOINTS]));
});

describeWithTools(['php'])('PHP SoapClient from another machine with its login and password', () => {
  testRemoteClientStack(
    (baseUrl, credentials) =>
      runClient('php', [...PHP_OPTIONS, CLIENT, baseUrl, ...SPEC_ENDPOINTS], {
        env: { ...process.env, ...credentials },
      }),
    { credential: 'basic' },
  );
});
