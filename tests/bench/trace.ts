/**
 * `npm run bench:trace`: one batch of the app under a Chromium trace, to see what the UI thread does while the
 * workers convert (the bench says how long; this says why). Prints every layout of the whole page with what
 * invalidated it, and every task of 50 ms or more with what ran inside it; writes the trace to
 * tests/bench/results/trace.json (open it in DevTools' Performance panel).
 *
 *   npm run bench:trace                        12 × 12 MP → WebP, compression off
 *   npm run bench:trace -- --format JPG --compression on --count 6
 *   npm run bench:trace -- --slowdown 4      the page's threads 4× slower, as on a cheap phone (DevTools' CPU throttling)
 *   npm run bench:trace -- --count 200 --size 160x120   a long list of small photos: what the list costs the UI thread
 *   npm run bench:trace -- --phone --slowdown 4   as the bench's phone: 390 × 844 touch, Rotate right tapped every 600 ms
 *   npm run bench:trace -- --photos gallery   the corpus's real photos as they are (inputs.ts corpusGallery), or
 *                                              --photos DIR: the JPEG, PNG and WebP files in DIR as they are
 *   npm run bench:trace -- --profile           also a CPU profile of the page: the functions that took the most time
 *                                              (written to tests/bench/results/page.cpuprofile)
 *   npm run bench:trace -- --frames            no trace (it slows layout several times over): the page's own long animation
 *                                              frames (LoAF) of 50 ms or more, each split into script (by what ran it),
 *                                              style and layout, and rendering, at the batch's real cost (with
 *                                              --profile, the page's CPU profile too, free of the trace's cost)
 *   npm run bench:trace -- --tasks             a light trace instead (the scheduler's tasks, V8's and the timeline's, no
 *                                              invalidation tracking): the UI thread's CPU by where each task was posted
 *                                              from in Chromium's source, and by what ran in it, for the native work a
 *                                              CPU profile shows only as "(program)"
 *   npm run bench:trace -- --memory            instead of the UI thread, where the page's memory goes during the batch:
 *                                              the renderer's allocators from Chromium's memory dumps (memory-trace.ts)
 *   npm run bench:trace -- --intake --count 1000 --size 640x480   the intake instead of a batch: a folder of that many
 *                                              photos (20 made, linked in turn) handed to the page, until every file is
 *                                              listed and the cards in the page have their previews (with --profile too)
 *   npm run bench:trace -- --folder --photos scale --count 1000 --format JPG --compression on --device-memory 4 --seconds 20
 *                                              the batch added as a folder through Chromium's folder dialog, as the scale
 *                                              scenario adds it (--photos scale: its 12 MP HEICs and JPEGs; without, the
 *                                              synthetic --size photos), the first 20 s from Convert only. In a profile on
 *                                              disk as the bench's (a folder's copy outgrows an incognito quota), which
 *                                              Playwright cannot trace: the page's long tasks instead, each with what the
 *                                              CPU profile sampled in it (--profile); --from-intake: from the folder's
 *                                              handing-over instead, the intake's tasks too (times still from Convert);
 *                                              --timeline: a trace too, through the page's own DevTools session, and
 *                                              its report (its zero the first click: Convert's, or with --from-intake
 *                                              the first setting's, before the folder is added)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allJobsSettled, centre, convertButton, launchChromium, openContext, openIdleApp, openPage, prepareBatch, startAppServer, tapUntil, throttle, type AppSettings } from './app-page.ts';
import { tapPoint } from '../phone-cpu.ts';
import { instrumentApp, readRecord, type AppRecord } from './app-instrument.ts';
import { corpusGallery, naturalPhotos, photoFolder, photoSet, type InputSet } from './inputs.ts';
import { scaleFolder } from './scenarios/scale.ts';
import { MEMORY_CATEGORY, MemoryTrace, memoryReport } from './memory-trace.ts';
import { UI_TASK_CATEGORIES, uiTasks, uiThread, type TraceEvent } from '../ui-thread-tasks.ts';
import { interactionsOf, type BenchEvent } from './figures.ts';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv[i + 1];
};
const settings: AppSettings = {
  format: (option('format') ?? 'WebP') as AppSettings['format'],
  quality: 80,
  compression: option('compression') === 'on',
};
const COUNT = Number(option('count') ?? 12);
const [WIDTH, HEIGHT] = (option('size') ?? '4000x3000').split('x').map(Number) as [number, number];
const SLOWDOWN = Number(option('slowdown') ?? 1);
const PHONE = argv.includes('--phone');
const PROFILE = argv.includes('--profile');
const MEMORY = argv.includes('--memory');
const FRAMES = argv.includes('--frames');
const TASKS = argv.includes('--tasks');
const INTAKE = argv.includes('--intake');
const FOLDER = argv.includes('--folder');
/** With --folder: the long tasks (and the profile) from the folder's handing-over, the intake's included. */
const FROM_INTAKE = argv.includes('--from-intake');
/** With --folder: a trace as well (through the page's own DevTools session), its layouts and long tasks reported. */
const TIMELINE = argv.includes('--timeline');
/** Stop this many seconds after Convert instead of at the batch's end (a long batch's trace is too big to read). */
const SECONDS = option('seconds') === undefined ? undefined : Number(option('seconds'));
const DEVICE_MEMORY_GB = option('device-memory') === undefined ? undefined : Number(option('device-memory'));
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking', 'toplevel', 'blink'];

const ms = (us: number | undefined) => ((us ?? 0) / 1000).toFixed(1);

function countBy(events: TraceEvent[], key: (e: TraceEvent) => string): string {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(key(e), (counts.get(key(e)) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1]);
  return top.slice(0, 6).map(([k, n]) => `${k} ×${n}`).join('; ') + (top.length > 6 ? '; …' : '');
}

/** When the trace's first click (Convert's) was dispatched on the UI thread, or its first event's time without one. */
function convertClickedAt(ui: TraceEvent[]): number {
  const click = ui.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'click');
  return click?.ts ?? ui[0]?.ts ?? 0;
}

function report(events: TraceEvent[], span = 'from Convert to the last job'): string[] {
  const ui = uiThread(events);
  const from = convertClickedAt(ui);
  const at = (e: TraceEvent) => `${Math.round((e.ts - from) / 1000)} ms`;
  const layouts = ui.filter((e) => e.name === 'Layout' && e.ph === 'X' && e.ts >= from);
  const whole = layouts.filter((e) => !e.args?.beginData?.partialLayout);
  const invalidations = ui.filter((e) => e.name === 'LayoutInvalidationTracking');
  let scriptEnd = 0;
  let scriptCpu = 0;
  for (const e of ui) {
    if (e.name !== 'FunctionCall' || e.ph !== 'X' || e.ts < from || e.ts < scriptEnd) continue;
    scriptCpu += e.tdur ?? 0;
    scriptEnd = e.ts + (e.dur ?? 0);
  }
  const lines = [
    `Script on the UI thread ${span}: ${ms(scriptCpu)} ms of CPU.`,
    `Layouts ${span}: ${layouts.length}, ${layouts.length - whole.length} of them partial (a relayout boundary's subtree); ` +
      `${ms(layouts.reduce((sum, e) => sum + (e.tdur ?? 0), 0))} ms of CPU in all, the longest ${ms(Math.max(0, ...layouts.map((e) => e.tdur ?? 0)))} ms.`,
    '',
    'Layouts of the whole page (when, dirty / all layout objects, CPU, what invalidated layout since the layout before):',
  ];
  layouts.forEach((layout, i) => {
    if (layout.args?.beginData?.partialLayout) return;
    const since = i === 0 ? from : layouts[i - 1]!.ts;
    const causes = invalidations.filter((e) => e.ts > since && e.ts <= layout.ts);
    const data = layout.args?.beginData;
    lines.push(`  ${at(layout)}: ${data?.dirtyObjects}/${data?.totalObjects}, ${ms(layout.tdur)} ms: ${countBy(causes, (e) => `${e.args?.data?.nodeName} ${e.args?.data?.reason}`) || '—'}`);
  });
  const tasks = ui.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.ph === 'X' && (e.dur ?? 0) >= 50_000 && e.ts >= from);
  lines.push('', `Tasks of 50 ms or more on the UI thread: ${tasks.length === 0 ? 'none' : ''}`);
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inside = ui.filter((e) => e.ph === 'X' && e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && ['FunctionCall', 'Layout', 'UpdateLayoutTree', 'Paint', 'PrePaint', 'Layerize'].includes(e.name));
    lines.push(`  ${at(task)}: ${ms(task.dur)} ms (${ms(task.tdur)} ms of CPU): ${inside.map((e) => `${e.name} ${ms(e.dur)}/${ms(e.tdur)}`).join(', ')}`);
  }
  lines.push('', 'Wall/CPU ms: a task that needs little CPU but takes long waited for a core (the workers hold them).');
  return lines;
}

/**
 * The UI thread's tasks from Convert on, their CPU summed by where each was posted from in Chromium's source, and the
 * CPU of the timeline's events in them by name (self time: an event's CPU less its children's).
 */
function tasksReport(events: TraceEvent[]): string[] {
  const tasks = uiTasks(events);
  const ui = uiThread(events).filter((e) => e.ph === 'X');
  const from = convertClickedAt(ui);
  // The task the click ran in counts: it began before the click, with the tap's pointer events (figures.ts likewise).
  const after = tasks.filter((task) => task.ts + task.wallMs * 1000 >= from);
  const total = after.reduce((sum, task) => sum + task.cpuMs, 0);
  const byOrigin = new Map<string, { count: number; cpuMs: number; longestMs: number }>();
  for (const task of after) {
    const origin = task.postedFrom || '(unknown)';
    const entry = byOrigin.get(origin) ?? { count: 0, cpuMs: 0, longestMs: 0 };
    entry.count++;
    entry.cpuMs += task.cpuMs;
    entry.longestMs = Math.max(entry.longestMs, task.wallMs);
    byOrigin.set(origin, entry);
  }
  // Self CPU of every event but the tasks themselves, by name: nested events are on one thread, so a stack gives each its children.
  const selfByName = new Map<string, number>();
  const stack: { end: number; name: string; self: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length > 0 && stack.at(-1)!.end <= upTo) {
      const done = stack.pop()!;
      selfByName.set(done.name, (selfByName.get(done.name) ?? 0) + done.self);
    }
  };
  // At one timestamp the enclosing event (the longer) comes first.
  const nested = ui.filter((event) => event.ts >= from && event.name !== 'ThreadControllerImpl::RunTask').sort((x, y) => x.ts - y.ts || (y.dur ?? 0) - (x.dur ?? 0));
  for (const e of nested) {
    close(e.ts);
    const cpu = (e.tdur ?? e.dur ?? 0) / 1000;
    if (stack.length > 0) stack.at(-1)!.self -= cpu;
    stack.push({ end: e.ts + (e.dur ?? 0), name: e.name, self: cpu });
  }
  close(Infinity);
  return [
    `The UI thread's tasks from Convert: ${after.length}, ${Math.round(total)} ms of CPU.`,
    '',
    'By where they were posted from (tasks, CPU ms, longest wall ms):',
    ...[...byOrigin].sort((a, b) => b[1].cpuMs - a[1].cpuMs).slice(0, 20).map(([origin, { count, cpuMs, longestMs }]) => `  ${Math.round(cpuMs)} ms in ${count}, longest ${Math.round(longestMs)}: ${origin}`),
    '',
    'Events in them by self CPU (ms):',
    ...[...selfByName].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([name, cpuMs]) => `  ${Math.round(cpuMs)} ${name}`),
  ];
}

/** The 25 functions with the most self time in a V8 CPU profile ("(program)" is the browser's own work). */
function selfTimes(profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[]; samples?: number[]; timeDeltas?: number[] }): string[] {
  const byNode = new Map<number, number>();
  profile.samples?.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
  const byFunction = new Map<string, number>();
  for (const { id, callFrame: f } of profile.nodes) {
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}:${f.columnNumber}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + (byNode.get(id) ?? 0));
  }
  return [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([key, us]) => `  ${ms(us)} ms  ${key}`);
}

interface FrameScript {
  invoker: string;
  sourceFunctionName: string;
  startTime: number;
  duration: number;
  forcedStyleAndLayoutDuration: number;
}
interface LongFrame {
  startTime: number;
  duration: number;
  blockingDuration: number;
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: FrameScript[];
}

/** Starts keeping the page's long animation frames, from now on (in the page). */
function observeLongFrames(): void {
  const frames: unknown[] = [];
  (window as unknown as { __longFrames: unknown[] }).__longFrames = frames;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) frames.push((entry as PerformanceEntry & { toJSON: () => unknown }).toJSON());
  }).observe({ type: 'long-animation-frame' });
}

const readLongFrames = () => (window as unknown as { __longFrames: LongFrame[] }).__longFrames;

/** Each long frame: when (from `from`, the first's start unless given), how long, its script by invoker, its forced layouts, and its style, layout and paint. */
function describeLongFrames(frames: LongFrame[], from = frames[0]?.startTime ?? 0): string[] {
  if (frames.length === 0) return ['none'];
  return frames.map((f) => {
    const end = f.startTime + f.duration;
    const script = f.scripts.reduce((sum, s) => sum + s.duration, 0);
    const rendering = f.renderStart > 0 ? end - f.renderStart : 0;
    const styleAndLayout = f.styleAndLayoutStart > 0 ? end - f.styleAndLayoutStart : 0;
    const scripts = f.scripts
      .filter((s) => s.duration >= 2)
      .map((s) => `${s.invoker}${s.sourceFunctionName ? ` ${s.sourceFunctionName}` : ''} ${Math.round(s.duration)}${s.forcedStyleAndLayoutDuration >= 1 ? ` (forced layout ${Math.round(s.forcedStyleAndLayoutDuration)})` : ''}`)
      .join('; ');
    return `  ${Math.round(f.startTime - from)} ms: ${Math.round(f.duration)} ms (blocking ${Math.round(f.blockingDuration)}): script ${Math.round(script)}, rendering ${Math.round(rendering)} (of it style, layout and paint ${Math.round(styleAndLayout)})${scripts ? ` — ${scripts}` : ''}`;
  });
}

/** A tap this slow is one to explain (the goal is 100 ms). */
const SLOW_TAP_MS = 80;

/**
 * Each tap of SLOW_TAP_MS or more (its slowest event), where its time went, and the long animation frames it overlapped:
 * what the page's thread ran while the tap waited. Times on the clock of the first long frame, as describeLongFrames'.
 */
function slowTapsInFrames(events: BenchEvent[], frames: LongFrame[]): string[] {
  const from = frames[0]?.startTime ?? 0;
  const slow = interactionsOf(events).filter((tap) => tap.duration >= SLOW_TAP_MS);
  if (slow.length === 0) return ['none'];
  return slow.map((tap) => {
    const end = tap.start + tap.duration;
    const overlapped = frames.filter((f) => f.startTime < end && f.startTime + f.duration > tap.start);
    const described = describeLongFrames(overlapped, from).map((line) => `  ${line.trim()}`);
    return [
      `  ${Math.round(tap.start - from)} ms: ${tap.name} ${Math.round(tap.duration)} ms (waiting for the thread ${Math.round(tap.processingStart - tap.start)}, handlers ${Math.round(tap.processingEnd - tap.processingStart)})`,
      ...(overlapped.length === 0 ? ['    in no long frame'] : described.map((line) => `  ${line}`)),
    ].join('\n');
  });
}

/** The page's UI thread over the intake of a folder of COUNT photos: its long tasks and what ran in them. */
async function traceIntake(): Promise<void> {
  const { folder, paths } = photoFolder(COUNT, [await photoSet(Math.min(COUNT, 20), WIDTH, HEIGHT)], `${COUNT} photos`);
  const server = await startAppServer();
  const browser = await launchChromium();
  try {
    const page = await (await openContext(browser)).newPage();
    await openIdleApp(page);
    await browser.startTracing(page, { categories: CATEGORIES });
    const profiler = PROFILE ? await startProfiler(page) : null;
    const intake = await prepareBatch(page, paths, settings, folder);
    const profile = profiler ? (await profiler.send('Profiler.stop')).profile : null;
    const trace = await browser.stopTracing();
    writeResults(trace, profile);
    console.log(`a folder of ${COUNT} photos (${WIDTH} × ${HEIGHT}): listed in ${Math.round(intake.listed - intake.from)} ms, the page's previews in ${Math.round(intake.to - intake.from)} ms; trace in tests/bench/results/trace.json\n`);
    console.log(report(JSON.parse(trace.toString()).traceEvents as TraceEvent[], 'from the first setting to the last preview').join('\n'));
    if (profile) console.log(['', 'Self time by function on the UI thread (CPU profile):', ...selfTimes(profile)].join('\n'));
  } finally {
    await browser.close();
    server.kill();
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  startTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Each long task the page saw from `from` (its clock), with the functions the CPU profile sampled most in it, by self
 * time and with their callers: `profileStartedAt` is the page's clock as the profiler started.
 */
function longTasksWithProfile(tasks: readonly { start: number; duration: number }[], from: number, profile: CpuProfile | null, profileStartedAt: number): string[] {
  const lines = [`Long tasks on the page from Convert: ${tasks.length === 0 ? 'none' : ''}`];
  const byId = new Map(profile?.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile?.nodes ?? []) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}:${f.columnNumber}`;
  };
  // Each sample's time on the page's clock.
  const times: number[] = [];
  let at = 0;
  for (const delta of profile?.timeDeltas ?? []) times.push(profileStartedAt + (at += delta) / 1000);
  for (const task of tasks) {
    const self = new Map<string, number>();
    profile?.samples?.forEach((id, i) => {
      if (times[i]! < task.start || times[i]! > task.start + task.duration) return;
      const callers = [label(id), ...[parent.get(id), parent.get(parent.get(id) ?? -1)].filter((p) => p !== undefined).map((p) => label(p))].join(' < ');
      self.set(callers, (self.get(callers) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
    });
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name, ms]) => `      ${ms.toFixed(1)} ms ${name}`);
    lines.push(`  ${Math.round(task.start - from)} ms: ${Math.round(task.duration)} ms`, ...top);
  }
  return lines;
}

/** A batch added as a folder through the folder dialog, in a profile on disk as the bench's: the page's long tasks, and what ran in them. */
async function traceFolderBatch(inputs: InputSet & { folder?: string }): Promise<void> {
  const server = await startAppServer();
  const { page, close } = await openPage();
  try {
    await page.addInitScript(instrumentApp);
    await openIdleApp(page, DEVICE_MEMORY_GB);
    const profiled = async () => (PROFILE ? { profiler: await startProfiler(page), startedAt: await page.evaluate(() => performance.now()) } : null);
    // From the intake: the profile and the long tasks from the folder's handing-over, not from Convert.
    let profiling = FROM_INTAKE ? await profiled() : null;
    const tracing = TIMELINE && FROM_INTAKE ? await tracePage(page) : null;
    const intake = await prepareBatch(page, inputs.paths, settings, inputs.folder);
    const convertAt = centre((await convertButton(page).boundingBox())!);
    profiling ??= await profiled();
    const traced = tracing ?? (TIMELINE ? await tracePage(page) : null);
    await page.mouse.click(convertAt.x, convertAt.y);
    await (SECONDS === undefined ? allJobsSettled(page, inputs.paths.length) : page.waitForTimeout(SECONDS * 1000));
    const profile = profiling ? ((await profiling.profiler.send('Profiler.stop')).profile as CpuProfile) : null;
    const trace = traced ? await traced() : null;
    const bench = await page.evaluate(readRecord<AppRecord>);
    writeResults(trace, profile);
    if (trace) console.log([...report(JSON.parse(trace.toString()).traceEvents as TraceEvent[], 'from the first click'), ''].join('\n'));
    const span = SECONDS === undefined ? '' : `, the first ${SECONDS} s`;
    console.log(`${inputs.name} → ${settings.format}, compression ${settings.compression ? 'on' : 'off'}${span}\n`);
    const from = FROM_INTAKE ? intake.from : bench.convertAt;
    console.log(longTasksWithProfile(bench.longTasks.filter((task) => task.start + task.duration >= from), bench.convertAt, profile, profiling?.startedAt ?? 0).join('\n'));
    if (profile) console.log(['', 'Self time by function on the UI thread (CPU profile):', ...selfTimes(profile)].join('\n'));
  } finally {
    await close();
    server.kill();
  }
}

/**
 * Traces the page through a DevTools session of its own: a page in a profile on disk (launchPersistentContext) has no
 * Browser for Playwright's tracing. Returns what stops the trace and gives it.
 */
async function tracePage(page: import('@playwright/test').Page): Promise<() => Promise<Buffer>> {
  const session = await page.context().newCDPSession(page);
  await session.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES } });
  return async () => {
    const complete = new Promise<string>((resolve) => session.once('Tracing.tracingComplete', (event) => resolve(event.stream!)));
    await session.send('Tracing.end');
    const handle = await complete;
    const chunks: Buffer[] = [];
    for (;;) {
      const { data, base64Encoded, eof } = await session.send('IO.read', { handle, size: 1 << 22 });
      chunks.push(Buffer.from(data, base64Encoded ? 'base64' : 'utf8'));
      if (eof) break;
    }
    await session.send('IO.close', { handle });
    return Buffer.concat(chunks);
  };
}

/** The trace, and the page's CPU profile if one was taken, in tests/bench/results (each opens in DevTools' Performance panel). */
function writeResults(trace: Buffer | null, profile: unknown): void {
  const results = join(import.meta.dirname, 'results');
  mkdirSync(results, { recursive: true });
  if (trace) writeFileSync(join(results, 'trace.json'), trace);
  if (profile) writeFileSync(join(results, 'page.cpuprofile'), JSON.stringify(profile));
}

async function startProfiler(page: import('@playwright/test').Page) {
  const profiler = await page.context().newCDPSession(page);
  await profiler.send('Profiler.enable');
  await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
  await profiler.send('Profiler.start');
  return profiler;
}

/** The batch's inputs: --photos' (gallery, scale, or a folder's photos as they are), else COUNT synthetic ones; with --folder, in a folder of their own. */
async function batchInputs(): Promise<InputSet & { folder?: string }> {
  const photos = option('photos');
  if (photos === 'scale') return scaleFolder(COUNT);
  const inputs = photos === 'gallery' ? corpusGallery() : photos ? { name: photos, paths: naturalPhotos(photos) } : await photoSet(Math.min(COUNT, FOLDER ? 20 : COUNT), WIDTH, HEIGHT);
  return FOLDER ? photoFolder(COUNT, [inputs], `a folder of ${COUNT}: ${inputs.name}`) : inputs;
}

async function main() {
  if (INTAKE) return traceIntake();
  const inputs = await batchInputs();
  if (FOLDER) return traceFolderBatch(inputs);
  const server = await startAppServer();
  const browser = await launchChromium();
  try {
    const page = await (await openContext(browser, PHONE ? { slowdown: SLOWDOWN } : undefined)).newPage();
    await page.addInitScript(instrumentApp);
    await openIdleApp(page, DEVICE_MEMORY_GB);
    // Memory is measured from the idle page, as the bench measures it, so its readings start before the files come.
    if (MEMORY) await browser.startTracing(page, { categories: [MEMORY_CATEGORY] });
    const memory = MEMORY ? await MemoryTrace.start(await browser.newBrowserCDPSession()) : null;
    memory?.mark('adding files');
    await prepareBatch(page, inputs.paths, settings);
    memory?.mark('Convert');
    const rotate = PHONE ? await tapPoint(page.getByRole('button', { name: 'Rotate right' })) : null;
    const convertAt = centre((await convertButton(page).boundingBox())!);
    await throttle(page, { slowdown: SLOWDOWN });
    const tracing = !MEMORY && !FRAMES;
    if (FRAMES) await page.evaluate(observeLongFrames);
    if (tracing) await browser.startTracing(page, { categories: TASKS ? [...UI_TASK_CATEGORIES, 'devtools.timeline'] : CATEGORIES });
    const profiler = PROFILE ? await startProfiler(page) : null;
    const over = () => (SECONDS === undefined ? allJobsSettled(page, inputs.paths.length) : page.waitForTimeout(SECONDS * 1000));
    if (PHONE) {
      await page.touchscreen.tap(convertAt.x, convertAt.y);
      await tapUntil(() => page.touchscreen.tap(rotate!.x, rotate!.y), over());
    } else {
      await page.mouse.click(convertAt.x, convertAt.y);
      await over();
    }
    const profile = profiler ? (await profiler.send('Profiler.stop')).profile : null;
    const pss = await memory?.stop();
    if (FRAMES) {
      const slowdown = SLOWDOWN > 1 ? `, CPU ${SLOWDOWN}× slower` : '';
      console.log(`${inputs.name} → ${settings.format}, compression ${settings.compression ? 'on' : 'off'}${slowdown}; long animation frames from Convert:\n`);
      const frames = await page.evaluate(readLongFrames);
      console.log(describeLongFrames(frames).join('\n'));
      if (PHONE) console.log(['', `Taps of ${SLOW_TAP_MS} ms or more, each with the long frames it waited in:`, ...slowTapsInFrames((await page.evaluate(readRecord<AppRecord>)).events, frames)].join('\n'));
      // A profile without a trace: what the page's thread ran, without the trace's own cost in it.
      writeResults(null, profile);
      if (profile) console.log(['', 'Self time by function on the UI thread (CPU profile):', ...selfTimes(profile)].join('\n'));
      return;
    }
    const trace = await browser.stopTracing();
    writeResults(trace, profile);
    const slowdown = SLOWDOWN > 1 ? `, CPU ${SLOWDOWN}× slower` : '';
    const span = SECONDS === undefined ? '' : `, the first ${SECONDS} s`;
    console.log(`${inputs.name} → ${settings.format}, compression ${settings.compression ? 'on' : 'off'}${slowdown}${span}; trace in tests/bench/results/trace.json\n`);
    const events = JSON.parse(trace.toString()).traceEvents as TraceEvent[];
    console.log((pss ? memoryReport(events, pss) : TASKS ? tasksReport(events) : report(events)).join('\n'));
    if (profile) console.log(['', 'Self time by function on the UI thread (CPU profile):', ...selfTimes(profile)].join('\n'));
  } finally {
    await browser.close();
    server.kill();
  }
}

await main();
