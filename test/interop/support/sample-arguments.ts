/**
 * The interop clients call every operation with each type's sample value ("1"). Three parameters
 * have rules that refuse it (AuthCode's code and phone, the notifications' baseUrlSchool), so the
 * clients take those from environment variables SAMPLE_<name>: a well-formed code, a phone number
 * outside the school directory (accepted and dropped), and this test service's own school.
 */
export const SAMPLE_ENVIRONMENT: Readonly<Record<string, string>> = {
  SAMPLE_code: '482913',
  SAMPLE_phone: '+15550100123',
  SAMPLE_baseUrlSchool: 'http://school.example',
};

/**
 * The service the clients call: its own school is the sample's, and each client's two AuthCode
 * calls (SOAP 1.1 and 1.2) are within the limits.
 */
export const SAMPLE_SERVICE_SETTINGS: Readonly<Record<string, string>> = {
  SCHOOL_BASE_URL: 'http://school.example',
  AUTH_CODE_PER_PHONE_PER_MINUTE: '100',
  AUTH_CODE_PER_PHONE_PER_HOUR: '100',
};
