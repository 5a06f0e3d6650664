import { describe, expect, it, vi } from 'vitest';
import type { Converter } from '../../src/conversion/bridge.ts';
import type { ConvertResult } from '../../core/contract.ts';
import type { DeviceBatch, Restored } from '../../src/conversion/deviceBatch.ts';
import { ConversionEngine, type EngineEvents } from '../../src/conversion/engine.ts';
import { AbortedError } from '../../src/conversion/pool.ts';
import { ScreenAwake } from '../../src/conversion/screenAwake.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { waitUntil } from './support/waitUntil.ts';

/** A converter the test finishes by hand, honouring the abort signal as the pool does (the queue's collaborator). */
function manualConverter() {
  const pending: { resolve: (result: ConvertResult) => void; aborted: () => boolean }[] = [];
  const convert: Converter = (_file, _settings, { signal }) =>
    new Promise<ConvertResult>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(new AbortedError()), { once: true });
      pending.push({ resolve, aborted: () => signal?.aborted ?? false });
    });
  return { convert, pending };
}

const image = (name: string) => new File([new Uint8Array(100)], name, { type: 'image/png' });
/** Files picked on their own, in no folder. */
const loose = (files: readonly File[]) => files.map((file) => ({ file, folder: '' }));
const output = (): ConvertResult => ({ blob: new Blob([new Uint8Array(10)], { type: 'image/webp' }), encodes: 1, route: 'bitmap', keptOriginal: null, grewBecause: null, look: null, lookSource: null, width: 4, height: 3, kept: 'memory', crc32: null });

/** The page's window as far as the engine uses it: events for leaving, and its document's visibility changes. */
function pageStandIn() {
  const page = Object.assign(new EventTarget(), { document: new EventTarget() });
  const leave = () => {
    const event = new Event('beforeunload', { cancelable: true });
    page.dispatchEvent(event);
    return event.defaultPrevented ? 'asks first' : 'leaves';
  };
  return { page, leave };
}

function makeEngine({ openDeviceBatch = async () => null as DeviceBatch | null } = {}) {
  const converter = manualConverter();
  const screen = new ScreenAwake(undefined);
  const screenSet = vi.spyOn(screen, 'set');
  const { page, leave } = pageStandIn();
  let idle: (() => void) | null = null;
  const events = { onRunFinished: vi.fn(), onStorageFull: vi.fn(), onRestored: vi.fn(), onBatchKept: vi.fn() } satisfies EngineEvents;
  const engine = new ConversionEngine(
    {
      convert: converter.convert,
      keepSource: async () => 'memory',
      openDeviceBatch,
      screenAwake: async () => screen,
      whenIdle: (callback) => {
        idle = callback;
        return () => (idle = null);
      },
      page,
    },
    events,
  );
  return { engine, events, screenSet, leave, becomeIdle: () => idle?.(), ...converter };
}

describe('ConversionEngine', () => {
  it('opens the batch kept on the device only once the page is idle, and says where this page keeps its batch', async () => {
    const openDeviceBatch = vi.fn(async () => null);
    const { engine, events, becomeIdle } = makeEngine({ openDeviceBatch });
    const stop = engine.start();
    expect(openDeviceBatch).not.toHaveBeenCalled();
    becomeIdle();
    await waitUntil(() => expect(events.onBatchKept).toHaveBeenCalledWith('memory'));
    expect(events.onRestored).not.toHaveBeenCalled();
    stop();
  });

  it('puts back what a page before it left and tells the page, with the device as the place', async () => {
    const restored: Restored = { completed: 2, resumed: 1, failed: 0, lost: 0, settings: DEFAULT_SETTINGS };
    const attach = vi.fn(async () => restored);
    const { engine, events, becomeIdle } = makeEngine({ openDeviceBatch: async () => ({ attach }) as unknown as DeviceBatch });
    const stop = engine.start();
    becomeIdle();
    await waitUntil(() => expect(events.onRestored).toHaveBeenCalledWith(restored));
    expect(attach).toHaveBeenCalledWith(engine.queue, expect.any(Function));
    expect(events.onBatchKept).toHaveBeenCalledWith('device');
    stop();
  });

  it('a page that ends before it is idle never opens the device batch', async () => {
    const openDeviceBatch = vi.fn(async () => null);
    const { engine, becomeIdle } = makeEngine({ openDeviceBatch });
    engine.start()();
    becomeIdle();
    expect(openDeviceBatch).not.toHaveBeenCalled();
  });

  it('while a run converts the screen stays on and leaving asks first (the batch is only in memory); after it, neither', async () => {
    const { engine, events, screenSet, leave, pending } = makeEngine();
    const stop = engine.start();
    expect(leave()).toBe('leaves');
    engine.queue.start(loose([image('a.png')]), DEFAULT_SETTINGS);
    await waitUntil(() => expect(screenSet).toHaveBeenLastCalledWith(true));
    expect(leave()).toBe('asks first');
    await waitUntil(() => expect(pending).toHaveLength(1));
    pending[0]!.resolve(output());
    await waitUntil(() => expect(events.onRunFinished).toHaveBeenCalledWith(expect.objectContaining({ succeeded: 1, failed: 0 })));
    await waitUntil(() => expect(screenSet).toHaveBeenLastCalledWith(false));
    expect(leave()).toBe('leaves');
    stop();
  });

  it('its end stops the running jobs, lets the screen go and no longer asks before leaving', async () => {
    const { engine, screenSet, leave, pending } = makeEngine();
    const stop = engine.start();
    engine.queue.start(loose([image('a.png')]), DEFAULT_SETTINGS);
    await waitUntil(() => expect(pending).toHaveLength(1));
    await waitUntil(() => expect(screenSet).toHaveBeenLastCalledWith(true));
    stop();
    expect(pending[0]!.aborted()).toBe(true);
    await waitUntil(() => expect(screenSet).toHaveBeenLastCalledWith(false));
    expect(leave()).toBe('leaves');
  });
});
