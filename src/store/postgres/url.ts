/** The PostgreSQL URL without its password, fit for logs and messages. */
export function withoutPassword(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.password = '';
  return url.toString();
}
