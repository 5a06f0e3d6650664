import type { LighthouseFigures, InitialScript } from '../coldstart.ts';
import type { InputSet } from '../inputs.ts';
import { measure, type Contender, type ContenderSummary, type Skipped } from '../measure.ts';

/** What every scenario is given: the command line's choices. */
export interface BenchContext {
  /** Runs of each contender (rounds). */
  runs: number;
  /** Real photos to make the inputs from, instead of synthetic scenes (--photos). */
  photos?: string[];
  /** Only the contenders whose name matches (--match). */
  match: RegExp | null;
}

/**
 * A figure held against a goal, computed from the contenders' summaries: reported, never asserted. `value` is null
 * when a contender it needs did not run.
 */
export interface Goal {
  label: string;
  /** The goal is met at or under this. */
  max: number;
  value: (contenders: readonly ContenderSummary[]) => number | null;
  /** Why the figure does not answer the goal on this run's inputs, or null where it does. */
  heldOff?: (contenders: readonly ContenderSummary[]) => string | null;
}

export interface GoalResult {
  label: string;
  max: number;
  value: number | null;
  /** Goal.heldOff's answer: the figure is reported, not judged. */
  heldOff?: string | null;
}

/** A batch of files converted by each contender: the table of times, long tasks, taps, memory, bytes and SSIM. */
export interface BatchResult {
  kind: 'batch';
  id: string;
  title: string;
  contenders: ContenderSummary[];
  goals: GoalResult[];
  /** What the inputs were, where the batch chose its own (the corpus's photos as they are) rather than --photos. */
  inputs?: string;
  /** A table of each input's figures, where the scenario gives one (BatchScenario.perImage). */
  perImage?: PerImageTable;
}

/** A table with a row per input: its heading line, its columns, and its rows (cells as they are shown). */
export interface PerImageTable {
  note: string;
  columns: string[];
  rows: string[][];
}

export interface ColdStartResult {
  kind: 'coldstart';
  id: string;
  title: string;
  scripts: InitialScript[];
  lighthouse: LighthouseFigures;
}

export interface TargetRow {
  targetKb: number;
  /** Null when the job failed (no quality fits the target): `failure` says why. */
  sizeKb: number | null;
  ratio: number | null;
  encodes: number | null;
  failure: string | null;
}

export interface TargetResult {
  kind: 'target';
  id: string;
  title: string;
  rows: TargetRow[];
}

export interface CompareRow {
  photo: string;
  /** From the tap on Compare to both sides drawn: the median of the runs, and the worst. */
  openMs: number;
  worstMs: number;
  /** Long tasks in that time, in the worst run, and the longest. */
  longTasks: number;
  longestMs: number;
}

export interface CompareResult {
  kind: 'compare';
  id: string;
  title: string;
  rows: CompareRow[];
}

/** A scenario that stopped with an error: the page says so, and the other scenarios still run. */
export interface FailedResult {
  kind: 'failed';
  id: string;
  title: string;
  error: string;
}

export type ScenarioResult = BatchResult | ColdStartResult | TargetResult | CompareResult | FailedResult;

/** One scenario: what `--only` names it, and how it runs. */
export interface Scenario {
  id: string;
  run: (context: BenchContext) => Promise<ScenarioResult[]>;
}

/**
 * The usual scenario: a title, inputs, the contenders that convert them (each with its own inputs, for the SSIM), and
 * the goals the figures are read against.
 */
export interface BatchScenario {
  id: string;
  inputs: (context: BenchContext) => Promise<InputSet>;
  title: (inputs: InputSet) => string;
  contenders: (inputs: InputSet) => (Contender | Skipped)[];
  goals?: Goal[];
  /** Runs of each contender when not the command line's (one, for the slowest scenarios). */
  runs?: number;
  /** What the inputs are, where the scenario chooses its own rather than --photos' or synthetic ones. */
  inputsNote?: string;
  /** A table of each input's figures from the contenders' first runs (ContenderSummary.perImage). */
  perImage?: (contenders: readonly ContenderSummary[], inputs: InputSet) => PerImageTable | null;
}

/** A Scenario from a BatchScenario. */
export function batchScenario(spec: BatchScenario): Scenario {
  return {
    id: spec.id,
    async run(context) {
      const inputs = await spec.inputs(context);
      const contenders = await measure(spec.runs ?? context.runs, spec.contenders(inputs), context.match);
      const goals = (spec.goals ?? []).map((goal) => ({ label: goal.label, max: goal.max, value: goal.value(contenders), heldOff: goal.heldOff?.(contenders) ?? null }));
      const perImage = spec.perImage?.(contenders, inputs) ?? undefined;
      return [{ kind: 'batch', id: spec.id, title: spec.title(inputs), contenders, goals, inputs: spec.inputsNote, perImage }];
    },
  };
}

/** The summary of the contender whose name starts so, or undefined. */
export const named = (contenders: readonly ContenderSummary[], start: string) => contenders.find((c) => c.name.startsWith(start));

/** a ÷ b of two contenders' figures, or null when either is missing. */
export function ratio(a: ContenderSummary | undefined, b: ContenderSummary | undefined, figure: (c: ContenderSummary) => number | null): number | null {
  const [x, y] = [a && figure(a), b && figure(b)];
  return x != null && y ? x / y : null;
}
