import { checkSchoolPath, SchoolEntryError } from './school-entry';

/** The most paths tried for one school (base, base-2, ...) before it is refused. */
const MOST_TRIES = 1_000;
const PATH_LENGTH = 40;

/** Lower-case letters and digits of `text`, runs of anything else as one "-"; accents dropped. */
function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, PATH_LENGTH)
    .replace(/-+$/, '');
}

/**
 * The path a school of a bundle is registered at by `import --add-schools`: its org's identifier
 * as a slug (NOOR-2 gives /noor-2), else its name's, else its sourcedId's; "-2", "-3" ... after it
 * when a school already has that path or the service answers it itself.
 */
export function schoolPathFor(
  school: { readonly sourcedId: string; readonly name: string; readonly identifier: string },
  taken: ReadonlySet<string>,
): string {
  const base = slugOf(school.identifier) || slugOf(school.name) || slugOf(school.sourcedId) || 'school';
  for (let attempt = 1; attempt <= MOST_TRIES; attempt += 1) {
    const suffix = attempt === 1 ? '' : `-${attempt}`;
    const candidate = `/${base.slice(0, PATH_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (taken.has(candidate)) continue;
    try {
      return checkSchoolPath(candidate);
    } catch (error) {
      if (!(error instanceof SchoolEntryError)) throw error;
    }
  }
  throw new SchoolEntryError(`no free path for the school ${school.sourcedId}`);
}
