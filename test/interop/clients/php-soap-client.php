<?php
/**
 * Calls every SOAP operation of the given ASMX endpoints with PHP's SoapClient, over SOAP 1.1 and
 * SOAP 1.2.
 *
 * Usage: php php-soap-client.php BASE_URL ENDPOINT_PATH...
 * Prints one JSON line per call: endpoint, operation, version, ok, and result or error.
 * The operations are discovered from each live WSDL (__getFunctions, __getTypes), never listed here.
 * With SERVICE_USER and SERVICE_SECRET set, SoapClient sends them as its login and password (HTTP Basic).
 */

const VERSIONS = ['1.1' => SOAP_1_1, '1.2' => SOAP_1_2];
// Sample values by XML Schema type; the service only needs well-typed arguments. A parameter
// whose rules need a particular form gets the environment variable SAMPLE_<name>, set by the test.
const SAMPLE_BY_TYPE = ['string' => '1', 'int' => 1];

/** Field lists of the WSDL's structs, by struct name, from __getTypes() ("struct X {\n string a;\n}"). */
function structFields(SoapClient $client): array
{
    $structs = [];
    foreach ($client->__getTypes() as $declaration) {
        if (preg_match('/^struct (\w+) \{(.*)\}$/s', $declaration, $match)) {
            preg_match_all('/^\s*(\w+) (\w+);$/m', $match[2], $fields, PREG_SET_ORDER);
            $structs[$match[1]] = array_map(fn ($field) => ['type' => $field[1], 'name' => $field[2]], $fields);
        }
    }
    return $structs;
}

/**
 * Operation name => input struct name, from __getFunctions() ("Response Op(Op $parameters)").
 * PHP lists the functions of the SOAP 1.1 and the SOAP 1.2 port, so each name appears twice.
 */
function operations(SoapClient $client): array
{
    $operations = [];
    foreach ($client->__getFunctions() as $signature) {
        if (!preg_match('/^\w+ (\w+)\((\w+) \$\w+\)$/', $signature, $match)) {
            throw new UnexpectedValueException("unexpected signature from __getFunctions(): $signature");
        }
        $operations[$match[1]] = $match[2];
    }
    return $operations;
}

/** Calls one operation; a fault is reported, not thrown, so every call runs. */
function call(SoapClient $client, string $operation, array $fields): array
{
    try {
        $arguments = [];
        foreach ($fields as $field) {
            $override = getenv("SAMPLE_{$field['name']}");
            $arguments[$field['name']] = $override !== false
                ? $override
                : (SAMPLE_BY_TYPE[$field['type']]
                    ?? throw new UnexpectedValueException("no sample value for type {$field['type']}"));
        }
        $response = $client->__soapCall($operation, [$arguments]);
        // The wrapper's only child (HelloWorldResult) is the result; an empty wrapper has none.
        $values = get_object_vars($response);
        return ['ok' => true, 'result' => $values ? reset($values) : null];
    } catch (Throwable $error) {
        return ['ok' => false, 'error' => get_class($error) . ': ' . $error->getMessage()];
    }
}

/** SoapClient's options: no WSDL cache (every run reads the live WSDL), and the caller's login if given. */
function clientOptions(int $soapVersion): array
{
    $options = ['soap_version' => $soapVersion, 'cache_wsdl' => WSDL_CACHE_NONE, 'exceptions' => true];
    $user = getenv('SERVICE_USER');
    if ($user !== false && $user !== '') {
        $options['login'] = $user;
        $options['password'] = getenv('SERVICE_SECRET');
    }
    return $options;
}

[, $baseUrl] = $argv;
foreach (array_slice($argv, 2) as $path) {
    foreach (VERSIONS as $version => $soapVersion) {
        // No WSDL cache: every run must read the live WSDL of this service instance.
        $client = new SoapClient("$baseUrl$path?WSDL", clientOptions($soapVersion));
        $structs = structFields($client);
        foreach (operations($client) as $operation => $inputStruct) {
            $report = ['endpoint' => $path, 'operation' => $operation, 'version' => $version];
            if (!isset($structs[$inputStruct])) {
                throw new UnexpectedValueException("no struct $inputStruct in __getTypes() of $path");
            }
            echo json_encode($report + call($client, $operation, $structs[$inputStruct]), JSON_UNESCAPED_SLASHES), "\n";
        }
    }
}
