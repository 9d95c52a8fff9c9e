/**
 * A count with its noun for a summary an operator reads: "1 problem", "12,345 problems". English
 * plurals, and the thousands grouped as the rest of the service's output does.
 */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? singular : plural}`;
}
