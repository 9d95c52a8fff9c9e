/**
 * What the release leaves out of its production dependencies: the files a dependency publishes for
 * its own build, tests, editors and readers, none of which Node.js loads when the service runs.
 * Each rule names what it removes and why; docs/deployment.md lists them for operators. A file a
 * rule spares is shipped as npm installed it. Licences are never removed: they must ship with the
 * code they cover.
 */

/** One entry of a dependency, as a rule sees it. */
export interface PrunedEntry {
  /** The entry's own name. */
  readonly name: string;
  /** Its path inside the package that holds it, with `/` between names (`build/Release/x.node`). */
  readonly pathInPackage: string;
  readonly isDirectory: boolean;
  /** Whether the package that holds it builds a native module (it has a `binding.gyp`). */
  readonly inNativePackage: boolean;
}

export interface PruneRule {
  /** What it removes, as `npm run package` reports it. */
  readonly removes: string;
  readonly matches: (entry: PrunedEntry) => boolean;
}

const LICENCE = /^(licen[cs]e|copying|notice|authors|patents)([._-].*)?$/i;
const TEST_AND_EXAMPLE_FOLDERS = new Set([
  'test',
  'tests',
  '__tests__',
  '__mocks__',
  'spec',
  'example',
  'examples',
  'benchmark',
  'benchmarks',
  'doc',
  'docs',
]);
const READER_FILE = /^(readme|changelog|changes|history|contributing|code_of_conduct|security|upgrading)([._-].*)?$/i;
const BUILD_CONFIG =
  /^(tsconfig.*\.json|jsconfig\.json|.*\.config\.[cm]?[jt]s|gulpfile\.js|gruntfile\.js|karma\.conf\.js)$/i;
const NATIVE_SOURCE_OR_OBJECT = /\.(c|cc|cpp|cxx|h|hh|hpp|o|obj|a|lib|gyp|gypi|mk)$/i;

const isLicence = (entry: PrunedEntry) => !entry.isDirectory && LICENCE.test(entry.name);
const atPackageRoot = (entry: PrunedEntry) => !entry.pathInPackage.includes('/');
const isFile = (entry: PrunedEntry) => !entry.isDirectory;

export const PRUNE_RULES: readonly PruneRule[] = [
  // Settings of the dependencies' editors, linters, CI and package managers (pdfkit publishes a
  // copy of yarn); the release runs node itself, never a dependency's command link.
  {
    removes: 'dot files and folders (.github, .yarn, .eslintrc, .bin, .package-lock.json)',
    matches: (entry) => entry.name.startsWith('.'),
  },
  // A dependency's own tests with their fixtures, its examples and manuals: nothing at run time reads them.
  {
    removes: 'test, example, benchmark and documentation folders',
    matches: (entry) => entry.isDirectory && TEST_AND_EXAMPLE_FOLDERS.has(entry.name.toLowerCase()),
  },
  // They map built code back to sources the release does not hold.
  { removes: 'source maps (*.map)', matches: (entry) => isFile(entry) && entry.name.endsWith('.map') },
  // Node.js runs the JavaScript beside them; declarations serve a compiler.
  {
    removes: 'TypeScript sources and declarations (*.ts, *.d.ts, *.mts, *.cts)',
    matches: (entry) => isFile(entry) && /\.[cm]?ts$/.test(entry.name),
  },
  // Written for a dependency's developers and users (licences are spared before any rule is asked).
  {
    removes: 'READMEs, change logs and other Markdown',
    matches: (entry) => isFile(entry) && (READER_FILE.test(entry.name) || /\.(md|markdown)$/i.test(entry.name)),
  },
  // How a dependency was built or tested, not how it runs.
  {
    removes: 'build settings at a package root (tsconfig.json, *.config.js, gulpfile.js, …)',
    matches: (entry) => isFile(entry) && atPackageRoot(entry) && BUILD_CONFIG.test(entry.name),
  },
  // The compiled module is the one file loaded; the C sources (better-sqlite3's copy of SQLite),
  // object files, archives and makefiles are what built it.
  {
    removes: 'a native module’s deps/, src/, binding.gyp and build/ but build/Release/*.node',
    matches: (entry) => entry.inNativePackage && isNativeBuildLeftover(entry.pathInPackage, entry.isDirectory),
  },
  // A server without a compiler cannot use them, and the release never builds.
  {
    removes: 'C and C++ sources, objects and makefiles anywhere',
    matches: (entry) => isFile(entry) && (NATIVE_SOURCE_OR_OBJECT.test(entry.name) || entry.name === 'Makefile'),
  },
];

/** Whether a path inside a native module's package is a leftover of its build (see the rule above). */
function isNativeBuildLeftover(pathInPackage: string, isDirectory: boolean): boolean {
  const [top, ...rest] = pathInPackage.split('/');
  if (top === 'deps' || top === 'src' || top === 'binding.gyp') return true;
  if (top !== 'build' || rest.length === 0) return false;
  // build/ and build/Release are walked into; within them only the compiled modules stay.
  if (rest.length === 1 && rest[0] === 'Release') return false;
  return !(rest.length === 2 && rest[0] === 'Release' && !isDirectory && rest[1]?.endsWith('.node'));
}

/** The first rule that removes an entry, or undefined when the entry ships. */
export function ruleRemoving(entry: PrunedEntry): PruneRule | undefined {
  if (isLicence(entry)) return undefined;
  return PRUNE_RULES.find((rule) => rule.matches(entry));
}
