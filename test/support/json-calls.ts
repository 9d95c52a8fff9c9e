/** Calls an operation through the JSON binding, as script clients do: POST /X.asmx/Op with a JSON object. */
export async function callJson(
  baseUrl: string,
  path: string,
  operation: string,
  parameters: Record<string, string | number>,
): Promise<{ status: number; body: { d?: unknown; Message?: string; ExceptionType?: string } }> {
  const response = await fetch(`${baseUrl}${path}/${operation}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify(parameters),
  });
  return {
    status: response.status,
    body: (await response.json()) as { d?: unknown; Message?: string; ExceptionType?: string },
  };
}

/**
 * Pushes "message N" to "device-N" of the school app over JSON: each to a device of its own, so
 * that only the sender and caller limits count.
 */
export function pushToNumberedDevice(baseUrl: string, index: number) {
  return callJson(baseUrl, '/PushNotificationMobile.asmx', 'PushNotificationToGateway', {
    applicationID: 'school-app',
    senderId: 'office',
    deviceId: `device-${index}`,
    notes: `message ${index}`,
    notes_type: 'notice',
  });
}
