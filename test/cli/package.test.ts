import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/cli';
import { describeEachEngine } from '../support/engines';
import { buildRelease, buildToolsOn, nodeOnlyPath, startRelease, unpackRelease } from '../support/release-package';
import { NS, soap11 } from '../support/soap';
import { readTarGz, type TarEntry } from '../support/tar-listing';

/**
 * The release as a server installs it: `npm run package` builds school-service-VERSION-linux-x64.tar.gz
 * (once for this file); it carries only what runs, nothing an attacker could use, and, unpacked
 * with tar into an empty folder, runs with node alone on the PATH (no npm, no compiler, no
 * registry): the service serves on each store engine and its commands work with the unit's
 * settings file.
 */

/** The release's unpacked size before its dependencies were pruned (the package of 2026-11-28). */
const UNPACKED_BYTES_BEFORE = 81_772_587;

let work: string;
let tarball: string;
let entries: TarEntry[];
let release: string;
let nodeOnly: NodeJS.ProcessEnv;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'school-package-'));
  const built = buildRelease(join(work, 'out'));
  tarball = built.tarball;
  entries = readTarGz(tarball);
  release = unpackRelease(tarball, join(work, 'opt'));
  nodeOnly = { PATH: nodeOnlyPath(work), HOME: work };
  process.stdout.write(`${built.report}`);
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The entries' paths inside the release's folder (`node_modules/x/y.js`), files and folders alike. */
const inside = () => entries.map((entry) => entry.path.replace(/^school-service-[^/]+\/?/, ''));
const unpackedBytes = () => entries.reduce((sum, entry) => sum + (entry.type === '0' ? entry.size : 0), 0);

describe('the release tarball (npm run package)', () => {
  test('holds the built code, the WSDL, the unit and the production dependencies, no development one', () => {
    const paths = new Set(inside());
    for (const needed of [
      'dist/src/main.js',
      'dist/src/cli.js',
      'wsdl/typed/GetStudentsInformation.wsdl',
      'deploy/school-service.service',
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'node_modules/pdfkit/js/pdfkit.js',
    ]) {
      expect([needed, paths.has(needed)]).toEqual([needed, true]);
    }
    for (const devOnly of ['typescript', 'tsx', 'jest', '@biomejs/biome', 'playwright-core', 'fast-check']) {
      expect([devOnly, existsSync(join(release, 'node_modules', devOnly))]).toEqual([devOnly, false]);
    }
    expect(existsSync(join(release, 'src'))).toBe(false);
  });

  test('carries no build leftovers, install-time tools, tests, maps, archives, declarations or readers’ files', () => {
    const leftovers = inside().filter(
      (path) =>
        /\.map$/.test(path) ||
        /^node_modules\/.*\.([cm]?ts|c|cc|cpp|h|hpp|o|a|gyp|gypi|mk)$/.test(path) ||
        /^node_modules\/better-sqlite3\/(deps|src)\//.test(path) ||
        /^node_modules\/better-sqlite3\/build\/(?!Release\/[^/]+\.node$|Release\/$|$)/.test(path) ||
        /\/(test|tests|__tests__|examples?|docs?|benchmarks?)\//.test(path) ||
        /^node_modules\/.*\/\.(yarn|github|bin)\//.test(path) ||
        /^node_modules\/(.*\/)?(readme|changelog|history)(\.[a-z]+)?$/i.test(path) ||
        /\.(tgz|tar|tar\.gz|zip)$/.test(path) ||
        /^node_modules\/(prebuild-install|node-gyp|tar-fs|rc)\//.test(path),
    );
    expect(leftovers).toEqual([]);
  });

  test('keeps every licence its dependencies were installed with', () => {
    const licence = /^(licen[cs]e|copying|notice)/i;
    const installedLicences = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
        if (entry.isDirectory()) return installedLicences(join(folder, entry.name));
        return licence.test(entry.name) ? [join(folder, entry.name)] : [];
      });
    const shipped = new Set(inside());
    const packages = inside().filter((path) => /^node_modules\/(@[^/]+\/)?[^/@.][^/]*\/package\.json$/.test(path));
    expect(packages.length).toBeGreaterThan(100);
    const missing = packages.flatMap((manifest) => {
      const folder = manifest.replace(/\/package\.json$/, '');
      return installedLicences(join(ROOT, folder))
        .map((file) => `${folder}/${file.slice(join(ROOT, folder).length + 1)}`)
        .filter((file) => !shipped.has(file));
    });
    expect(missing).toEqual([]);
    expect(shipped.has('node_modules/better-sqlite3/LICENSE')).toBe(true);
  });

  test('unpacks to at most half of what the release unpacked to before its dependencies were pruned', () => {
    const packed = statSync(tarball).size;
    process.stdout.write(`release: ${packed} bytes packed, ${unpackedBytes()} bytes unpacked\n`);
    expect(unpackedBytes()).toBeLessThanOrEqual(UNPACKED_BYTES_BEFORE / 2);
  });
});

describe('the release tarball, read as an attacker would', () => {
  test('every entry stays in the release’s folder: no absolute name, no `..`, no link that leads out', () => {
    const top = entries[0]?.path.replace(/\/$/, '') as string;
    expect(top).toMatch(/^school-service-\d+\.\d+\.\d+$/);
    const escaping = entries.filter((entry) => {
      const segments = entry.path.split('/');
      if (segments[0] !== top || segments.includes('..') || segments.includes('.')) return true;
      if (entry.type !== '1' && entry.type !== '2') return false;
      // A hard link names a path in the archive; a symbolic one a path from its own folder.
      const from = entry.type === '1' ? [] : segments.slice(0, -1);
      const resolved: string[] = [];
      for (const segment of [...from, ...entry.linkTarget.split('/')]) {
        if (segment === '..') resolved.pop();
        else if (segment !== '.' && segment !== '') resolved.push(segment);
      }
      return entry.linkTarget.startsWith('/') || resolved[0] !== top || resolved.length < 2;
    });
    expect(escaping.map((entry) => `${entry.path} -> ${entry.linkTarget}`)).toEqual([]);
  });

  test('holds files and folders alone, owned by root, writable by their owner alone, without a set-id bit', () => {
    const unusual = entries.filter(
      (entry) => !['0', '5'].includes(entry.type) || entry.uid !== 0 || entry.gid !== 0 || (entry.mode & 0o7022) !== 0,
    );
    expect(unusual.map((entry) => `${entry.path} type ${entry.type} mode ${entry.mode.toString(8)}`)).toEqual([]);
  });

  test('holds no secret, key, settings file, store, data folder, version control or test fixture', () => {
    const suspicious = inside().filter(
      (path) =>
        /(^|\/)\.(env|npmrc|netrc|pgpass|git|ssh|aws)(\/|$|\.)/i.test(path) ||
        /\.(env|pem|key|p12|pfx|jks|keystore|crt|der|sqlite|sqlite-wal|sqlite-shm|db|sqlite3|dump|csv|zip)$/i.test(
          path,
        ) ||
        /(^|\/)(id_rsa|id_ed25519|id_ecdsa|id_dsa)(\.|$)/.test(path) ||
        /^(data|coverage|test|\.ci)\//.test(path) ||
        /(^|\/)(fixtures?|__fixtures__)\//.test(path),
    );
    expect(suspicious).toEqual([]);
  });

  test('no file holds a private key, a registry token or this checkout’s store key', () => {
    const markers = [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, /_authToken\s*=/, /aws_secret_access_key/i];
    const storeKey = join(ROOT, 'data', 'outbox.key');
    const ownKey = existsSync(storeKey) ? readFileSync(storeKey, 'utf8').trim() : undefined;
    const holding = entries
      .filter((entry) => entry.type === '0')
      .filter((entry) => {
        const text = entry.content.toString('latin1');
        return markers.some((marker) => marker.test(text)) || (ownKey !== undefined && text.includes(ownKey));
      });
    expect(holding.map((entry) => entry.path)).toEqual([]);
  });
});

/** The packaged command, run from the release with the unit's settings file and node alone on the PATH. */
function command(envFile: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [join(release, 'dist', 'src', 'cli.js'), '--env', envFile, ...args], {
    cwd: work,
    env: nodeOnly,
    encoding: 'utf8',
  });
}

describeEachEngine('the release, unpacked into an empty folder and run with node alone', (engine) => {
  let envFile: string;

  beforeAll(() => {
    envFile = join(work, `school-service-${engine.engine}.env`);
    // The data folder holds the key file on either engine (the store's sealed data needs it).
    const settings = { DATA_DIR: join(work, `data-${engine.engine}`), ...engine.freshStoreSettings() };
    const store = Object.entries(settings).map(([name, value]) => `${name}=${value}\n`);
    writeFileSync(envFile, `${store.join('')}PORT=0\nHOST=127.0.0.1\nLOG_LEVEL=info\nCONTRACT=typed\nDEMO_DATA=off\n`);
  });

  test('finds no build tool on its PATH; its commands load a demo school, add a caller and list the routes', () => {
    expect(buildToolsOn(nodeOnly.PATH as string)).toEqual([]);
    const demo = command(envFile, 'demo-data', '--students', '20', '--seed', '3');
    expect([demo.status, demo.stdout]).toEqual([0, expect.stringMatching(/^Loaded a demo school into .* 20 students/)]);
    const added = command(envFile, 'callers', 'add', 'gateway', '--network', '10.1.2.0/24');
    expect([added.status, command(envFile, 'callers', 'list').stdout]).toEqual([
      0,
      expect.stringMatching(/^gateway +active +networks 10\.1\.2\.0\/24/),
    ]);
    expect(command(envFile, 'routes').stdout).toMatch(/GetStudentInfoById +local/);
  });

  test('serves a SOAP HelloWorld, a typed student record and a report card, and stops on SIGTERM', async () => {
    const service = await startRelease(release, { ...nodeOnly, SCHOOL_SERVICE_ENV: envFile });
    try {
      const hello = await soap11(
        `${service.url}/GetStudentsNote.asmx`,
        `<HelloWorld xmlns="${NS}" />`,
        `"${NS}HelloWorld"`,
      );
      expect([hello.status, hello.text]).toEqual([
        200,
        expect.stringContaining('<HelloWorldResult>Hello World</HelloWorldResult>'),
      ]);
      const student = await soap11(
        `${service.url}/GetStudentsInformation.asmx`,
        `<GetStudentInfoById xmlns="${NS}"><StudentId>1</StudentId></GetStudentInfoById>`,
        `"${NS}GetStudentInfoById"`,
      );
      expect([student.status, student.text]).toEqual([
        200,
        expect.stringMatching(/<StudentId>1<\/StudentId>[\s\S]*<NameEn>[^<]+<\/NameEn>/),
      ]);
      const classId = /<ClassId>(\d+)<\/ClassId>/.exec(student.text)?.[1];
      // A report card: the PDF writer and its fonts, which the pruning must have left whole.
      const report = await soap11(
        `${service.url}/GenerateStudentReport.asmx`,
        `<GenerateReport xmlns="${NS}"><studentId>1</studentId>` +
          `<studentClass>${classId}</studentClass></GenerateReport>`,
        `"${NS}GenerateReport"`,
      );
      const pdf = /<Content>([^<]+)<\/Content>/.exec(report.text)?.[1] ?? '';
      expect([report.status, Buffer.from(pdf, 'base64').subarray(0, 5).toString('latin1')]).toEqual([200, '%PDF-']);
      const exited = new Promise<number | null>((resolveExit) => service.child.once('exit', resolveExit));
      service.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    }
  });

  test('its commands export the school, check the export as an import would, and show the trail', () => {
    const status = command(envFile, 'delivery-status', '--json');
    expect([status.status, JSON.parse(status.stdout)]).toEqual([0, { queued: 0, retrying: 0, sent: 0, failed: 0 }]);
    expect(status.stderr).toMatch(engine.engine === 'sqlite' ? /^store: SQLite / : /^store: PostgreSQL /);
    const bundle = join(work, `export-${engine.engine}.zip`);
    const exported = command(envFile, 'export', bundle);
    expect([exported.status, exported.stdout]).toEqual([0, expect.stringContaining('users.csv')]);
    const checked = command(envFile, 'import', '--dry-run', '--replace', bundle);
    expect([checked.status, checked.stdout]).toEqual([0, expect.stringMatching(/20 students[\s\S]* 0 problems/)]);
    const trail = command(envFile, 'audit', '--student', '1');
    expect([trail.status, trail.stdout]).toEqual([0, expect.stringMatching(/GetStudentInfoById +soap11 +ok/)]);
  });
});
