/**
 * A school's base URL in the one form the registry compares: scheme and host in lower case, the
 * default port left out, the path without a trailing slash. Anything that is not a plain
 * http(s) address (user info, query, fragment) is refused: undefined.
 */
export function normaliseBaseUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash)
    return undefined;
  // URL already lower-cases scheme and host and drops the scheme's default port.
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}
