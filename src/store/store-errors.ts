/**
 * Errors of opening a store that a setting causes, which trying again cannot mend: a wrong password
 * or user, a database that does not exist (PostgreSQL's codes), a data folder the process may not
 * write. The service exits 2 on them, which its unit does not restart; a store that is down
 * (refused or timed-out connections) exits 1 and is tried again.
 */
const SETTING_CODES = new Set(['28P01', '28000', '3D000', 'EACCES', 'EROFS', 'SQLITE_CANTOPEN']);

export function isSettingToFix(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && SETTING_CODES.has(code);
}
