/**
 * The service at school scale: how long a 20,000-student school takes to generate on the embedded
 * store, then each query operation's throughput and latency against it over SOAP 1.1, and the
 * service's peak memory. A benchmark, not a test: it prints figures and checks nothing.
 *
 *   npm run bench:scale                                   20,000 students, 5 s per operation
 *   npm run bench:scale -- --students 5000 --duration 3 --connections 4 --only Marks --no-build
 *   npm run bench:scale -- --workers 1 --warmup 1          one service process, 1 s of warm-up
 *
 * It builds the service (unless --no-build), generates the school with the demo-data command into
 * a new SQLite store in a temporary folder, picks a few hundred real identifiers of each kind
 * from it, starts the compiled service on that store in the typed profile (so that results are
 * really read and serialised), and loads each operation with wrk, every request taking the next
 * identifier in turn. The service runs one worker process per core (WORKERS, --workers to
 * change it). Its memory is the sum of its processes' proportional set sizes, sampled through the
 * run (see benchmark/memory.ts).
 */
import BetterSqlite3 from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SQLITE_FILE_NAME } from '../src/store/open-store';
import {
  benchmarkServiceEnvironment,
  buildService,
  CLI_ENTRY,
  checkBenchmarkTools,
  ROOT,
  SERVICE_ENTRY,
} from './benchmark/build';
import { MemorySampler, residentPeaksMegabytes } from './benchmark/memory';
import { firstMatchingLine, freePort, ProcessGroup } from './benchmark/processes';
import { scenariosFor, type Operation } from './benchmark/scenarios';
import { runWrk, writeWrkScript } from './benchmark/wrk';

const GOALS = { generationSeconds: 180, p99Millis: 10, peakMegabytes: 300 };
/** How many different identifiers each operation's requests rotate over. */
const SAMPLE = 400;

type Parameters = ReadonlyArray<readonly [string, string]>;

/** A query operation and the parameter sets its requests rotate over, all from the generated school. */
interface Workload {
  readonly operation: Omit<Operation, 'parameters'>;
  readonly parameterSets: (database: BetterSqlite3.Database) => Parameters[];
}

const column = (database: BetterSqlite3.Database, sql: string) =>
  (database.prepare(sql).raw().all() as unknown[][]).map((row) => row.map(String));
const sample = (table: string, id = 'id') =>
  `SELECT ${id} FROM ${table} ORDER BY (${id} * 7919) % 10007 LIMIT ${SAMPLE}`;

const WORKLOADS: readonly Workload[] = [
  {
    operation: {
      label: 'GetStudentInfoByRecId',
      endpoint: '/GetStudentsInformation.asmx',
      name: 'GetStudentInfoByRecId',
    },
    parameterSets: (db) => column(db, sample('student_records')).map(([id]) => [['StudentRecId', id]]),
  },
  {
    operation: { label: 'GetStudentInfoById', endpoint: '/GetStudentsInformation.asmx', name: 'GetStudentInfoById' },
    parameterSets: (db) => column(db, sample('students')).map(([id]) => [['StudentId', id]]),
  },
  {
    operation: {
      label: 'GetStudentSubjectsByID',
      endpoint: '/GetStudentsSubjects.asmx',
      name: 'GetStudentSubjectsByID',
    },
    parameterSets: (db) => column(db, sample('students')).map(([id]) => [['STDid', id]]),
  },
  {
    operation: {
      label: 'GetTeacherSubjectsByID',
      endpoint: '/GetTeacherSubjects.asmx',
      name: 'GetTeacherSubjectsByID',
    },
    parameterSets: (db) =>
      column(
        db,
        `SELECT DISTINCT teacher_id, class_id FROM teacher_assignments ORDER BY (id * 7919) % 10007 LIMIT ${SAMPLE}`,
      ).map(([teacher, klass]) => [
        ['Tid', teacher],
        ['TClassid', klass],
      ]),
  },
  {
    operation: { label: 'GetStudentsMarks2', endpoint: '/GetStudnetsMarks2.asmx', name: 'GetStudentsMarks2' },
    parameterSets: (db) =>
      column(
        db,
        'SELECT r.student_id, a.subject_id FROM marks m JOIN student_records r ON r.id = m.student_record_id ' +
          `JOIN assessments a ON a.id = m.assessment_id ORDER BY (m.id * 7919) % 10007 LIMIT ${SAMPLE}`,
      ).map(([student, subject]) => [
        ['StudnetID', student],
        ['SubjectID', subject],
      ]),
  },
  {
    operation: { label: 'GetAllAuditsByClassId', endpoint: '/GetStudentsAudit.asmx', name: 'GetAllAuditsByClassId' },
    parameterSets: (db) => column(db, sample('classes')).map(([id]) => [['classId', id]]),
  },
  {
    operation: { label: 'GetStudentsGnote', endpoint: '/GetGeneralNoteByClasssID.asmx', name: 'GetStudentsGnote' },
    parameterSets: (db) => column(db, sample('classes')).map(([id]) => [['ClassID', id]]),
  },
  {
    operation: { label: 'GetTeacherGrpupsByID', endpoint: '/GetTeacherGroups.asmx', name: 'GetTeacherGrpupsByID' },
    parameterSets: (db) => column(db, sample('teachers')).map(([id]) => [['Tid', id]]),
  },
  {
    operation: { label: 'GetStudentNoteByID', endpoint: '/GetStudnetNote2.asmx', name: 'GetStudentNoteByID' },
    parameterSets: (db) => column(db, sample('student_notes', 'student_id')).map(([id]) => [['STDid', id]]),
  },
  {
    operation: { label: 'GetExamTableByExamId', endpoint: '/Scheduals.asmx', name: 'GetExamTableByExamId' },
    parameterSets: (db) => column(db, sample('exams')).map(([id]) => [['ExamId', id]]),
  },
  {
    operation: { label: 'GetStudentsNoteType', endpoint: '/GetNoteType.asmx', name: 'GetStudentsNoteType' },
    parameterSets: () => [[]],
  },
];

interface Options {
  students: number;
  seed: number;
  durationSeconds: number;
  connections: number;
  workers: number;
  warmupSeconds: number;
  only: string | undefined;
  build: boolean;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      students: { type: 'string', default: '20000' },
      seed: { type: 'string', default: '7' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '4' },
      workers: { type: 'string', default: String(availableParallelism()) },
      warmup: { type: 'string', default: '2' },
      only: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const positive = (text: string, name: string) => {
    if (!/^\d+$/.test(text) || Number(text) < 1)
      throw new Error(`--${name} must be a positive whole number, got "${text}"`);
    return Number(text);
  };
  return {
    students: positive(values.students, 'students'),
    seed: positive(values.seed, 'seed'),
    durationSeconds: positive(values.duration, 'duration'),
    connections: positive(values.connections, 'connections'),
    workers: positive(values.workers, 'workers'),
    warmupSeconds: positive(values.warmup, 'warmup'),
    only: values.only?.toLowerCase(),
    build: !values['no-build'],
  };
}

function generateSchool(dataDirectory: string, options: Options): number {
  console.log(`Generating a ${options.students}-student school (seed ${options.seed}) into a new SQLite store ...`);
  const started = process.hrtime.bigint();
  const result = spawnSync(
    process.execPath,
    [CLI_ENTRY, 'demo-data', '--students', String(options.students), '--seed', String(options.seed)],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDirectory, DATABASE_URL: '', LOG_LEVEL: 'warn' },
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error(`the demo-data command failed (exit ${result.status})`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const millis = (micros: number) => (micros / 1000).toFixed(2);

async function main(): Promise<void> {
  const options = parseOptions();
  const workloads = WORKLOADS.filter(
    (workload) => !options.only || workload.operation.name.toLowerCase().includes(options.only),
  );
  if (workloads.length === 0) throw new Error(`no operation matches --only ${options.only}`);
  if (options.build) buildService();
  checkBenchmarkTools();

  const group = new ProcessGroup();
  const workDirectory = mkdtempSync(join(tmpdir(), 'benchmark-scale-'));
  process.once('exit', () => group.killAllNow());
  try {
    const dataDirectory = join(workDirectory, 'data');
    const generationSeconds = generateSchool(dataDirectory, options);
    const database = new BetterSqlite3(join(dataDirectory, SQLITE_FILE_NAME), { readonly: true });
    const loads = workloads.map((workload) => ({ workload, parameterSets: workload.parameterSets(database) }));
    database.close();

    const port = await freePort();
    const service = group.spawn(process.execPath, [SERVICE_ENTRY], {
      cwd: ROOT,
      env: benchmarkServiceEnvironment(port, dataDirectory, {
        LOG_LEVEL: 'info',
        CONTRACT: 'typed',
        WORKERS: String(options.workers),
      }),
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    // The service logs at info so that its "listening" line (every worker's, with WORKERS>1) shows
    // when it is ready; only its warnings and errors are passed on.
    let partLine = '';
    service.stderr?.setEncoding('utf8');
    service.stderr?.on('data', (chunk: string) => {
      const lines = (partLine + chunk).split('\n');
      partLine = lines.pop() ?? '';
      for (const line of lines) if (/"level":"(warn|error)"/.test(line)) process.stderr.write(`${line}\n`);
    });
    await firstMatchingLine(
      service,
      options.workers > 1 ? /"message":"workers listening"/ : /"message":"listening"/,
      60_000,
      'the service',
      'stderr',
    );
    const pid = service.pid as number;
    const memory = new MemorySampler(pid);

    const rows: string[] = [];
    const missed: string[] = [];
    for (const [index, { workload, parameterSets }] of loads.entries()) {
      const [scenario] = scenariosFor({ ...workload.operation, parameters: [] });
      const bodies = parameterSets.map((parameters) => scenariosFor({ ...workload.operation, parameters })[0].body);
      const script = writeWrkScript(workDirectory, index, scenario, bodies);
      const url = `http://127.0.0.1:${port}${scenario.path}`;
      await runWrk(group, script, url, pid, {
        connections: options.connections,
        threads: 1,
        durationSeconds: options.warmupSeconds,
      });
      const result = await runWrk(group, script, url, pid, {
        connections: options.connections,
        threads: 1,
        durationSeconds: options.durationSeconds,
      });
      if (result.errors > 0)
        throw new Error(`${workload.operation.name}: ${result.errors} errors or non-2xx responses`);
      if (result.p99Micros / 1000 >= GOALS.p99Millis) missed.push(workload.operation.name);
      rows.push(
        `| ${workload.operation.name} | ${bodies.length} | ` +
          `${Math.round(result.requestsPerSecond).toLocaleString('en-US')} | ${millis(result.p50Micros)} | ` +
          `${millis(result.p99Micros)} | ${result.cpuMicrosPerRequest.toFixed(0)} |`,
      );
    }
    const peak = memory.stop();
    const residentPeaks = residentPeaksMegabytes(pid);

    console.log('');
    console.log(
      `${new Date().toISOString()} | ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ` +
        `${(totalmem() / 2 ** 30).toFixed(0)} GiB | Node ${process.version}`,
    );
    console.log(
      `School: ${options.students} students, seed ${options.seed}, embedded SQLite. ` +
        `Service: WORKERS=${options.workers}, CONTRACT=typed. ` +
        `Load: wrk, 1 thread, ${options.connections} connections, ${options.durationSeconds} s per operation ` +
        `after ${options.warmupSeconds} s of warm-up, SOAP 1.1.`,
    );
    console.log('');
    console.log(
      `Generation: ${generationSeconds.toFixed(1)} s (goal under ${GOALS.generationSeconds} s: ` +
        `${generationSeconds < GOALS.generationSeconds ? 'met' : 'NOT met'})`,
    );
    console.log('');
    console.log('| Operation | Ids rotated | req/s | p50 ms | p99 ms | CPU/call µs |');
    console.log('|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    console.log('');
    console.log(
      `p99 under ${GOALS.p99Millis} ms for every operation: ` +
        `${missed.length === 0 ? 'met' : `NOT met for ${missed.join(', ')}`}`,
    );
    console.log(
      `Service peak memory (sum of Pss over its processes): ${peak.toFixed(0)} MB ` +
        `(goal under ${GOALS.peakMegabytes} MB: ${peak < GOALS.peakMegabytes ? 'met' : 'NOT met'}); ` +
        `sum of their VmHWM, shared pages counted in each: ${residentPeaks.toFixed(0)} MB`,
    );
  } finally {
    await group.stopAll();
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`scale benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
