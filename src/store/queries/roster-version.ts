import { compiledQuery } from '../compiled-query';
import type { Session } from '../session';

const versionQuery = compiledQuery((db) => db.selectFrom('roster_versions').select('version').where('id', '=', 1));

/**
 * The version of the school's records but marks (migration 020): it moves on with every change to
 * them, whichever process or node makes it, so a copy read at one version is current while the
 * version is the same.
 */
export async function rosterVersion(session: Session): Promise<number> {
  const [row] = await versionQuery(session, {});
  return Number(row?.version ?? 0);
}
