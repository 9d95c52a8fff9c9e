/**
 * An identifier sent as text: digits within the int range, or undefined. Identifiers the store
 * cannot hold are simply unknown, which the product answers with an empty result, not a fault.
 */
export function identifier(text: string | null): number | undefined {
  const trimmed = text?.trim() ?? '';
  if (!/^\d{1,10}$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 1 && value <= 2147483647 ? value : undefined;
}
