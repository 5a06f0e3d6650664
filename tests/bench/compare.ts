/**
 * `npm run bench:compare -- <git ref>`: the phone batch of this working tree against the same batch of another
 * commit, run after run in alternation (A B, B A, …), so that both meet the machine's slow and fast spells alike.
 * One bench set of three runs swings more than most changes for the page's thread move it; this is how a change is
 * told from the weather.
 *
 *   npm run bench:compare -- HEAD~1                       8 rounds of the JPG batch at 4× (8 × 12 MP, compression off)
 *   npm run bench:compare -- main --batch default --slowdown 6 --rounds 6   4 × 12 MP → WebP, default settings, at 6×
 *   npm run bench:compare -- HEAD~1 --batch gallery       the corpus's 8 real photos as they are → JPG (inputs.ts corpusGallery)
 *
 * Each run: the bench's phone (390 × 844 touch, "Rotate right" tapped on the idle page, alone and with one worker
 * busy, and every 600 ms through the batch). Prints each run, then per build: long tasks a run from Convert to the
 * batch's end, the medians of the slowest tap, the Convert tap and the batch time, and the taps with one worker busy
 * (the same for both builds but for the weather).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instrumentApp, readRecord, type AppRecord } from './app-instrument.ts';
import { convertOnPhone, openIdleApp, openPage, prepareBatch, startAppServer, VITE_BIN, type AppSettings } from './app-page.ts';
import { median } from '../../src/lib/median.ts';
import { longTaskFigures, oneWorkerBusyFigures, tapFigures } from './figures.ts';
import { corpusGallery, photoSet, type InputSet } from './inputs.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv[i + 1];
};
const ref = argv[0];
if (!ref || ref.startsWith('--')) {
  console.error('usage: npm run bench:compare -- <git ref> [--batch jpg|default|gallery] [--rounds 8] [--slowdown 4]');
  process.exit(2);
}
const BATCHES = {
  jpg: { inputs: () => photoSet(8, 4000, 3000), settings: { format: 'JPG', quality: 80, compression: false } },
  default: { inputs: () => photoSet(4, 4000, 3000), settings: { format: 'WebP', quality: 80, compression: true } },
  gallery: { inputs: async () => corpusGallery(), settings: { format: 'JPG', quality: 80, compression: false } },
} satisfies Record<string, { inputs: () => Promise<InputSet>; settings: AppSettings }>;
const batchName = (option('batch') ?? 'jpg') as keyof typeof BATCHES;
const batch = BATCHES[batchName];
if (!batch) throw new Error(`--batch is jpg, default or gallery, not ${batchName}`);
const ROUNDS = Number(option('rounds') ?? 8);
const SLOWDOWN = Number(option('slowdown') ?? 4);

interface RunFigures {
  batchMs: number;
  longTasks: number;
  longestMs: number;
  slowestTapMs: number;
  convertTapMs: number | null;
  /** The same page's taps before Convert with one worker busy (convertOnPhone): the machine's weather at the time. */
  oneWorkerBusyTapMs: number;
  oneWorkerBusyLongTasks: number;
}

async function runOnce(url: string, paths: string[]): Promise<RunFigures> {
  const phone = { slowdown: SLOWDOWN };
  const { page, close } = await openPage(phone);
  try {
    await page.addInitScript(instrumentApp);
    await openIdleApp(page, undefined, url);
    await prepareBatch(page, paths, batch.settings);
    const windows = await convertOnPhone(page, paths.length, phone);
    const bench = await page.evaluate(readRecord<AppRecord>);
    const longTasks = longTaskFigures(bench, bench.convertAt, bench.finishedAt);
    const taps = tapFigures(bench.events, bench.convertAt, bench.convertAt + 1, bench.finishedAt, windows.idle);
    const floor = oneWorkerBusyFigures(bench, windows.oneWorkerBusy);
    return {
      batchMs: Math.round(bench.finishedAt - bench.convertAt),
      longTasks: longTasks.count,
      longestMs: longTasks.longestMs,
      slowestTapMs: taps.slowestMs,
      convertTapMs: taps.convertTapMs,
      oneWorkerBusyTapMs: floor.slowestMs,
      oneWorkerBusyLongTasks: floor.longTasks,
    };
  } finally {
    await close();
  }
}

/** `vite build` of the tree at `dir`, into its dist/. */
function build(dir: string): void {
  execFileSync(process.execPath, [VITE_BIN, 'build'], { cwd: dir, stdio: 'ignore' });
}

/** The other commit's build, made in a worktree of its own (sharing this tree's node_modules), in `dir`/dist. */
function buildRef(dir: string): void {
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref!], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  build(dir);
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'bench-compare-'));
  const other = join(work, 'other');
  const servers: { kill: () => void }[] = [];
  try {
    build(ROOT);
    // A copy: the bench and the tests build into dist/ too.
    cpSync(join(ROOT, 'dist'), join(work, 'this'), { recursive: true });
    buildRef(other);
    const builds = [
      { name: 'this tree', url: 'http://localhost:4191/', outDir: join(work, 'this'), port: 4191 },
      { name: ref!, url: 'http://localhost:4192/', outDir: join(other, 'dist'), port: 4192 },
    ];
    for (const build of builds) servers.push(await startAppServer(build.outDir, build.port));
    const inputs = await batch.inputs();
    console.log(`${inputs.name} ${batchName} batch at ${SLOWDOWN}×, ${ROUNDS} rounds: this tree against ${ref}\n`);
    const figures = new Map<string, RunFigures[]>(builds.map((b) => [b.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const run = await runOnce(build.url, inputs.paths);
        figures.get(build.name)!.push(run);
        console.log(`  round ${round + 1}, ${build.name}: batch ${run.batchMs} ms, ${run.longTasks} long tasks (longest ${run.longestMs} ms), slowest tap ${run.slowestTapMs} ms, Convert tap ${run.convertTapMs ?? '—'} ms; one worker busy before: slowest tap ${run.oneWorkerBusyTapMs} ms, ${run.oneWorkerBusyLongTasks} long tasks`);
      }
    }
    console.log('');
    for (const [name, runs] of figures) {
      const longTasks = runs.reduce((sum, r) => sum + r.longTasks, 0);
      console.log(
        `${name}: ${(longTasks / runs.length).toFixed(2)} long tasks a run (longest ${Math.max(0, ...runs.map((r) => r.longestMs))} ms); ` +
          `slowest tap ${median(runs.map((r) => r.slowestTapMs))} ms (median of runs; worst ${Math.max(...runs.map((r) => r.slowestTapMs))}); ` +
          `Convert tap ${median(runs.map((r) => r.convertTapMs ?? 0))} ms; batch ${median(runs.map((r) => r.batchMs))} ms; ` +
          `one worker busy before Convert: slowest tap ${median(runs.map((r) => r.oneWorkerBusyTapMs))} ms, ${(runs.reduce((sum, r) => sum + r.oneWorkerBusyLongTasks, 0) / runs.length).toFixed(2)} long tasks a run`,
      );
    }
  } finally {
    for (const server of servers) server.kill();
    try {
      execFileSync('git', ['worktree', 'remove', '--force', other], { cwd: ROOT, stdio: 'ignore' });
    } catch {
      // Never made: the build of this tree failed first.
    }
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
