import { describe, expect, it } from 'vitest';
import { isAllocatorHousekeeping, ownWorkMs, uiTasks, type TraceEvent } from '../ui-thread-tasks.ts';

const MAIN = { pid: 7, tid: 1 };
const threadName: TraceEvent = { name: 'thread_name', ph: 'M', ts: 0, ...MAIN, args: { name: 'CrRendererMain' } };

/** A task of the renderer's main thread: `cpuMs` of CPU, posted from `src_file`. */
function task(ts: number, cpuMs: number, src_file: string, src_func: string): TraceEvent {
  return { name: 'ThreadControllerImpl::RunTask', ph: 'X', ts, dur: cpuMs * 1000 + 500, tdur: cpuMs * 1000, ...MAIN, args: { src_file, src_func } };
}

describe('the page’s own work in a task', () => {
  it('counts a frame’s CPU outside the garbage collector', () => {
    const frame = task(1_000, 60, 'cc/trees/proxy_impl.cc', 'ScheduledActionSendBeginMainFrame');
    const collection: TraceEvent = { name: 'MinorGC', ph: 'X', ts: 2_000, dur: 12_000, tdur: 12_000, ...MAIN };
    const [only] = uiTasks([threadName, frame, collection]);
    expect(only!.postedFrom).toBe('cc/trees/proxy_impl.cc ScheduledActionSendBeginMainFrame');
    expect(isAllocatorHousekeeping(only!)).toBe(false);
    expect(ownWorkMs(only!)).toBe(48);
  });

  it('counts none of the allocator’s own housekeeping', () => {
    const purge = task(1_000, 58, 'base/allocator/partition_alloc_support.cc', 'OnBackgrounded');
    const [only] = uiTasks([threadName, purge]);
    expect(only!.cpuMs).toBe(58);
    expect(isAllocatorHousekeeping(only!)).toBe(true);
    expect(ownWorkMs(only!)).toBe(0);
  });

  it('reads a task without its origin (an older trace) as the page’s', () => {
    const bare: TraceEvent = { name: 'ThreadControllerImpl::RunTask', ph: 'X', ts: 1_000, dur: 55_000, tdur: 55_000, ...MAIN };
    const [only] = uiTasks([threadName, bare]);
    expect(only!.postedFrom).toBe('');
    expect(ownWorkMs(only!)).toBe(55);
  });
});
