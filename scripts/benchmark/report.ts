import type { LoadResult } from './wrk';

/** The figures of one scenario: every measured run of the service and of the bare server. */
export interface ScenarioRuns {
  readonly name: string;
  readonly service: LoadResult[];
  readonly bare: LoadResult[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const medianOf = (runs: readonly LoadResult[], pick: (run: LoadResult) => number) => median(runs.map(pick));

/** Ratio of each round's service run to the same round's bare run, so drift between rounds cancels. */
function roundRatios(runs: ScenarioRuns): number[] {
  return runs.service.map((run, round) => run.requestsPerSecond / runs.bare[round].requestsPerSecond);
}

/** The most CPU other processes took during any run of the scenario. */
export function maximumOtherLoad(runs: ScenarioRuns): number {
  return Math.max(...[...runs.service, ...runs.bare].map((run) => run.otherCores));
}

/** wrk's CPU per request over every run, to show how much of the machine the load tool took. */
export function clientCpuRange(all: readonly ScenarioRuns[]): [number, number] {
  const values = all.flatMap((runs) => [...runs.service, ...runs.bare]).map((run) => run.clientCpuMicrosPerRequest);
  return [Math.min(...values), Math.max(...values)];
}

/** The service's CPU per call over the bare server's, each round's pair taken together, the median of the rounds. */
export function cpuToBareRatio(runs: ScenarioRuns): number {
  return median(runs.service.map((run, round) => run.cpuMicrosPerRequest / runs.bare[round].cpuMicrosPerRequest));
}

export function serviceToBareRatio(runs: ScenarioRuns): number {
  return median(roundRatios(runs));
}

const COLUMNS = [
  'scenario',
  'service req/s',
  'bare req/s',
  'ratio',
  'ratio range',
  'service p99',
  'bare p99',
  'service CPU/call',
  'bare CPU/call',
  'CPU x bare',
  'other load',
];

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const micros = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} ms` : `${Math.round(value)} us`);

function row(runs: ScenarioRuns): string[] {
  const ratios = roundRatios(runs);
  return [
    runs.name,
    integer(medianOf(runs.service, (run) => run.requestsPerSecond)),
    integer(medianOf(runs.bare, (run) => run.requestsPerSecond)),
    serviceToBareRatio(runs).toFixed(2),
    `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
    micros(medianOf(runs.service, (run) => run.p99Micros)),
    micros(medianOf(runs.bare, (run) => run.p99Micros)),
    `${medianOf(runs.service, (run) => run.cpuMicrosPerRequest).toFixed(1)} us`,
    `${medianOf(runs.bare, (run) => run.cpuMicrosPerRequest).toFixed(1)} us`,
    `${cpuToBareRatio(runs).toFixed(2)}x`,
    `${maximumOtherLoad(runs).toFixed(2)} cores`,
  ];
}

/** A plain-text table, the scenario left-aligned and the figures right-aligned. */
export function formatTable(all: readonly ScenarioRuns[]): string {
  const rows = [COLUMNS, ...all.map(row)];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((cells) => cells[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}
