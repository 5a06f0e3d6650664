/**
 * The bench's page: docs/benchmark.md, written by `npm run bench` and never by hand, and the same figures as JSON in
 * tests/bench/results/ (git-ignored).
 */
import { IDLE_TAPS } from './app-page.ts';
import type { ContenderSummary } from './measure.ts';
import type { BatchResult, ColdStartResult, CompareResult, FailedResult, GoalResult, ScenarioResult, TargetResult } from './scenarios/scenario.ts';

export interface RunDescription {
  date: string;
  cpu: string;
  cores: number;
  browserVersion: string;
  runs: number;
  /** The command that produced these figures. */
  command: string;
  photos: boolean;
  /** The kernel's transparent huge pages setting during the run (tests/bench/huge-pages.ts); absent from older runs. */
  hugePages?: string | null;
}

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);
const megabytes = (bytes: number | null) => (bytes === null ? '—' : `${(bytes / 1024 / 1024).toFixed(2)} MB`);

function coldStartTable({ title, scripts, lighthouse }: ColdStartResult): string[] {
  const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
  return [
    `## ${title}`,
    '',
    `Initial JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (${scripts.map((s) => `${s.file} ${(s.gzipBytes / 1024).toFixed(1)} KB`).join(', ')}; goal ≤ 100 KB).`,
    '',
    '| performance | accessibility | best practices | SEO | FCP | LCP | TBT |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| ${lighthouse.scores.performance} | ${lighthouse.scores.accessibility} | ${lighthouse.scores['best-practices']} | ${lighthouse.scores.seo} | ${lighthouse.fcpMs} ms | ${lighthouse.lcpMs} ms | ${lighthouse.tbtMs} ms |`,
    '',
    `Not passing: ${lighthouse.failing.length === 0 ? 'none' : lighthouse.failing.join(', ')}.`,
  ];
}

function targetTable({ title, rows }: TargetResult): string[] {
  return [`## ${title}`, '', '| target | result | result ÷ target | encodes |', '| --- | --- | --- | --- |', ...rows.map((r) => (r.failure === null ? `| ${r.targetKb} KB | ${r.sizeKb} KB | ${r.ratio!.toFixed(3)} | ${r.encodes} |` : `| ${r.targetKb} KB | failed: ${r.failure} | — | — |`))];
}

function contenderRow(c: ContenderSummary, app: ContenderSummary): string {
  const ratio = c.batchMs && app.batchMs ? (app.batchMs / c.batchMs).toFixed(2) : '—';
  const longTasks = c.longTasks ? `${c.longTasks.count} / ${c.longTasks.longestMs} ms / ${c.longTasks.totalBlockingMs} ms` : '—';
  const frames = c.longTasks ? String(c.longTasks.longFrames) : '—';
  const when = c.peakAtMs == null ? '' : ` at ${seconds(c.peakAtMs)}`;
  const memory = c.peakMemoryMb === null ? '—' : `${c.peakMemoryMb} MB (+${c.overIdleMb ?? '?'} MB${when})`;
  return `| ${c.name}${c.note ? ` (${c.note})` : ''} | ${seconds(c.batchMs)} | ${ratio} | ${seconds(c.zipMs)} | ${seconds(c.looksMs ?? null)} | ${longTasks} | ${frames} | ${memory} | ${megabytes(c.totalBytes)} | ${c.ssim ?? '—'} |`;
}

function cpuLine(c: ContenderSummary): string {
  const entries = Object.entries(c.cpu!);
  const total = entries.reduce((sum, [, s]) => sum + s, 0);
  return `- ${c.name}: ${total.toFixed(1)} s — ${entries.slice(0, 5).map(([group, s]) => `${group} ${s.toFixed(1)}`).join(', ')}`;
}

function tapLine(c: ContenderSummary): string {
  const taps = c.taps!;
  const split = taps.slowest ? ` (waiting for the thread ${taps.slowest.waitingMs}, handlers ${taps.slowest.handlersMs}, to the paint ${taps.slowest.toPaintMs})` : '';
  const busy = c.oneWorkerBusy;
  const floor = busy ? `; with one worker busy, slowest of ${busy.taps} taps in ${busy.runs} run${busy.runs === 1 ? '' : 's'} ${busy.slowestMs} ms, ${busy.longTasks} long tasks (longest ${busy.longestTaskMs} ms)` : '';
  const spread = taps.medianMs === undefined ? '' : `, median ${taps.medianMs} ms, as INP reads them ${taps.inpMs} ms`;
  return `- ${c.name}: slowest of ${taps.taps} taps ${taps.slowestMs} ms${split}${spread}; the Convert tap ${taps.convertTapMs} ms; the idle page beforehand, slowest of ${IDLE_TAPS} taps ${taps.idleSlowestMs} ms${floor}`;
}

function goalLine({ label, max, value, heldOff }: GoalResult): string {
  if (value === null) return `- ${label}: not measured (a contender it needs did not run); goal ≤ ${max}`;
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (heldOff) return `- ${label}: ${shown} (goal ≤ ${max}: not held against it here, ${heldOff})`;
  return `- ${label}: ${shown} (goal ≤ ${max}: ${value <= max ? 'met' : 'not met'})`;
}

function batchTable({ title, contenders, goals, perImage }: BatchResult): string[] {
  const app = contenders[0]!;
  const lines = [
    `## ${title}`,
    '',
    '| contender | batch (median) | app ÷ this | to zip | to looks | long tasks (count / longest / TBT) | long frames | peak memory (over the idle page, when from Convert) | output | SSIM |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...contenders.map((c) => contenderRow(c, app)),
  ];
  const withCpu = contenders.filter((c) => c.cpu);
  if (withCpu.length > 0) lines.push('', 'CPU seconds by Chromium thread over the batch (first run; the UI thread is renderer/chromium):', '', ...withCpu.map(cpuLine));
  const withTaps = contenders.filter((c) => c.taps);
  if (withTaps.length > 0) {
    lines.push('', "Taps, input to next paint (Event Timing; the worst run; the idle page's are the same taps with nothing running, then with one worker of the page's own busy):", '', ...withTaps.map(tapLine));
  }
  const withLooks = contenders.filter((c) => c.look);
  if (withLooks.length > 0) {
    lines.push('', 'How the outputs look, as the app judged them (SSIMULACRA2 on its view of tiles; first run):', '', ...withLooks.map((c) => `- ${c.name}: worst ${c.look!.worst}, median ${c.look!.median}`));
  }
  if (perImage) {
    lines.push('', perImage.note, '', `| ${perImage.columns.join(' | ')} |`, `| ${perImage.columns.map(() => '---').join(' | ')} |`, ...perImage.rows.map((row) => `| ${row.join(' | ')} |`));
  }
  if (goals.length > 0) lines.push('', 'Against the goals:', '', ...goals.map(goalLine));
  return lines;
}

function compareTable({ title, rows }: CompareResult): string[] {
  return [
    `## ${title}`,
    '',
    '| photo | tap to both drawn (median) | worst | long tasks (worst run) | longest |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.photo} | ${r.openMs} ms | ${r.worstMs} ms | ${r.longTasks} | ${r.longestMs} ms |`),
    '',
    'Goal: well under a second, with no long task.',
  ];
}

function failedSection({ title, error }: FailedResult): string[] {
  return [`## ${title}`, '', `Did not finish: ${error}`];
}

const TABLES: { [K in ScenarioResult['kind']]: (result: Extract<ScenarioResult, { kind: K }>) => string[] } = {
  batch: batchTable,
  coldstart: coldStartTable,
  target: targetTable,
  compare: compareTable,
  failed: failedSection,
};

function tableOf(result: ScenarioResult): string[] {
  return (TABLES[result.kind] as (r: ScenarioResult) => string[])(result);
}

/** A scenario's result with the run that measured it: a partial run replaces only the scenarios it ran. */
export interface RecordedResult {
  scenario: string;
  run: RunDescription;
  result: ScenarioResult;
}

/** The runs a batch scenario made of each contender: the command line's, or its own (BatchScenario.runs). */
const runsOf = (result: ScenarioResult, run: RunDescription): number =>
  result.kind === 'batch' ? Math.max(0, ...result.contenders.map((c) => c.runsMs.length)) || run.runs : run.runs;

/** What the inputs were: the batch's own (BatchResult.inputs), or as the command line made them. */
const inputsOf = (result: ScenarioResult, run: RunDescription) =>
  (result.kind === 'batch' ? result.inputs : undefined) ?? (run.photos ? 'inputs made from real photos' : 'synthetic photo-like inputs');

const describeRun = (run: RunDescription, runs: number, inputs: string) =>
  `Measured ${run.date} by \`${run.command}\` on ${run.cpu} (${run.cores} cores${run.hugePages ? `, transparent huge pages ${run.hugePages}` : ''}), Chromium ${run.browserVersion}, ${inputs}; medians of ${runs} run(s), long tasks, memory and taps the worst run.`;

/** The recorded results with this run's in place of those of the scenarios it ran, in `order`. */
export function mergeResults(previous: readonly RecordedResult[], latest: readonly RecordedResult[], order: readonly string[]): RecordedResult[] {
  const ran = new Set(latest.map((r) => r.scenario));
  const all = [...previous.filter((r) => !ran.has(r.scenario)), ...latest];
  return all.sort((a, b) => order.indexOf(a.scenario) - order.indexOf(b.scenario));
}

/** The page: each scenario's table, with the run that measured it. */
export function benchmarkPage(results: readonly RecordedResult[]): string {
  return [
    '# Benchmark',
    '',
    '<!-- Written by `npm run bench` (tests/bench/report.ts). Do not edit: run the bench. -->',
    '',
    'The latest figures of each scenario; how to read them: [performance.md](performance.md).',
    '',
    ...results.flatMap(({ run, result }) => {
      const [heading, ...rest] = tableOf(result);
      return [heading!, '', describeRun(run, runsOf(result, run), inputsOf(result, run)), ...rest, ''];
    }),
  ].join('\n');
}
