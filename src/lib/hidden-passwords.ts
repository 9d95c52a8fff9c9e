/**
 * A URL's password on the command line (`copy-store --to postgres://user:password@host/db`) can be
 * read by every user of the machine in `ps` and /proc/PID/cmdline for as long as the process
 * runs. On Linux node writes process.title over the memory those read, so the arguments are
 * shown again with each password replaced; what ran before that line (a fraction of a second)
 * cannot be taken back, which is why the commands also take such URLs from a file or the environment.
 */
const PASSWORD_IN_URL = /^([a-z][a-z0-9+.-]*:\/\/[^/?#@:\s]*:)([^/?#@\s]+)(@)/i;

/** The text with a URL's password replaced by `***`. */
export function withoutUrlPassword(text: string): string {
  return text.replace(PASSWORD_IN_URL, '$1***$3');
}

/** Hides passwords of URLs among the process's arguments from `ps`; true when there were any. */
export function hidePasswordsFromProcessList(argv: readonly string[] = process.argv): boolean {
  if (!argv.some((argument) => PASSWORD_IN_URL.test(argument))) return false;
  process.title = argv.map(withoutUrlPassword).join(' ');
  return true;
}
