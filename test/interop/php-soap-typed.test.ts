import { join } from 'node:path';
import { describeWithTools } from '../support/tools';
import { runClient } from './support/client-process';
import { testTypedClientStack, type TypedClientCall } from './support/typed-client-suite';

const CLIENT = join(__dirname, 'clients', 'php-soap-typed-client.php');
// Warnings go to standard error so that they cannot corrupt the JSON lines on standard output.
const PHP_OPTIONS = ['-d', 'display_errors=stderr', '-d', 'error_reporting=E_ALL'];

describeWithTools(['php'])('PHP SoapClient (php-soap) reading typed results from the live typed WSDL', () => {
  testTypedClientStack(({ baseUrl, callArguments, environment }) =>
    runClient<TypedClientCall>('php', [...PHP_OPTIONS, CLIENT, baseUrl, ...callArguments], { env: environment }),
  );
});
