<?php
/**
 * Reads typed results with PHP's SoapClient: a student and their marks, over SOAP 1.1 and SOAP 1.2.
 *
 * Usage: php php-soap-typed-client.php BASE_URL STUDENT_ID SUBJECT_ID UNKNOWN_ID
 * Prints one JSON line per call, in UTF-8: the fields SoapClient decoded (the contract is in
 * test/interop/support/typed-client-suite.ts).
 */

const VERSIONS = ['1.1' => SOAP_1_1, '1.2' => SOAP_1_2];

function client(string $wsdlUrl, int $soapVersion): SoapClient
{
    // No WSDL cache: every run must read the live WSDL of this service instance. Without
    // SOAP_SINGLE_ELEMENT_ARRAYS a list of one mark would be decoded as the mark itself.
    return new SoapClient($wsdlUrl, [
        'soap_version' => $soapVersion,
        'cache_wsdl' => WSDL_CACHE_NONE,
        'exceptions' => true,
        'features' => SOAP_SINGLE_ELEMENT_ARRAYS,
    ]);
}

function studentFields(?stdClass $student): ?array
{
    return $student === null ? null : [
        'StudentId' => $student->StudentId,
        'NameAr' => $student->NameAr,
        'NameEn' => $student->NameEn,
        'ClassNameAr' => $student->ClassNameAr,
        'BirthDate' => $student->BirthDate,
    ];
}

function marksSummary(?stdClass $marks): array
{
    // An empty ArrayOfMark is decoded as an object without a Mark property.
    $list = $marks->Mark ?? [];
    $first = $list[0] ?? null;
    return [
        'count' => count($list),
        'first' => $first === null ? null : [
            'AssessmentNameAr' => $first->AssessmentNameAr,
            'Score' => $first->Score,
            'MaxScore' => $first->MaxScore,
        ],
    ];
}

/** Prints the line of one call; a fault or error is reported, not thrown, so every call runs. */
function report(string $version, string $operation, array $arguments, callable $read): void
{
    $line = ['version' => $version, 'operation' => $operation, 'arguments' => $arguments];
    try {
        $line += ['ok' => true, 'result' => $read()];
    } catch (Throwable $error) {
        $line += ['ok' => false, 'error' => get_class($error) . ': ' . $error->getMessage()];
    }
    // PHP strings are the UTF-8 bytes SoapClient decoded; printed unescaped, and never mangled:
    // text that is not UTF-8 makes json_encode throw.
    echo json_encode($line, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR), "\n";
}

[, $baseUrl, $studentId, $subjectId, $unknownId] = $argv;
foreach (VERSIONS as $version => $soapVersion) {
    $information = client("$baseUrl/GetStudentsInformation.asmx?WSDL", $soapVersion);
    $marks = client("$baseUrl/GetStudnetsMarks2.asmx?WSDL", $soapVersion);
    foreach ([$studentId, $unknownId] as $student) {
        report($version, 'GetStudentInfoById', [$student], fn () => studentFields(
            $information->GetStudentInfoById(['StudentId' => $student])->GetStudentInfoByIdResult ?? null
        ));
    }
    foreach ([$subjectId, $unknownId] as $subject) {
        report($version, 'GetStudentsMarks2', [$studentId, $subject], fn () => marksSummary(
            $marks->GetStudentsMarks2(['StudnetID' => $studentId, 'SubjectID' => $subject])
                ->GetStudentsMarks2Result ?? null
        ));
    }
}
