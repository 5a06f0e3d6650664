import { ConversionQueue, type RunSummary } from './conversionQueue.ts';
import type { Converter, Judge } from './bridge.ts';
import type { DeviceBatch, Restored, SourceKeeper } from './deviceBatch.ts';
import type { ScreenAwake } from './screenAwake.ts';

/** What the page is told of the engine's life: the toasts and the integrations' calls are the page's, not the engine's. */
export interface EngineEvents {
  /** Every job of a run has settled (the spec's completion step). */
  onRunFinished: (summary: RunSummary) => void;
  /** Once a run, when the device's storage is full: the rest of the run is kept in memory. */
  onStorageFull: () => void;
  /** The batch a page before this one left on the device is back in the queue. */
  onRestored: (restored: Restored) => void;
  /** Where this page keeps its batch, once the device's storage has been tried. */
  onBatchKept?: (place: 'device' | 'memory') => void;
}

/** Where the engine finds what it does not own: the app's real ones by default, stand-ins in unit tests. */
export interface EngineParts {
  convert: Converter;
  /** Judges an output's look after its batch (a worker in the app); without it, each output is judged as it converts. */
  judge?: Judge;
  /** Copies a job's source onto the device (a worker in the app). */
  keepSource: SourceKeeper;
  /** The batch kept on the device, or null where there is no room or another tab keeps one (deviceBatch.ts). */
  openDeviceBatch?: () => Promise<DeviceBatch | null>;
  /** Keeps the screen on (screenAwake.ts); loaded with the first run: the idle page does not need it. */
  screenAwake?: () => Promise<ScreenAwake>;
  /** Runs its callback once the page is idle, returning a cancel (frames.ts whenIdle in the app). */
  whenIdle: (callback: () => void) => () => void;
  /** The page's window, for "leave the page?" while a batch is only in memory and for the screen lock's visibility. */
  page?: Pick<Window, 'addEventListener' | 'removeEventListener'> & { document?: Pick<Document, 'addEventListener' | 'removeEventListener'> };
}

const openDeviceBatch = () => import('./deviceBatch.ts').then(({ DeviceBatch }) => DeviceBatch.open());

const loadScreenAwake = () => import('./screenAwake.ts').then(({ ScreenAwake }) => new ScreenAwake());

/**
 * The conversion engine, outside React: the queue, the batch kept on the device, the screen kept on and the question
 * before leaving while a batch would be lost. What the page's thread does during a run is here and in the queue;
 * components only subscribe to the queue for what they show.
 *
 * `start()` begins its life on a page (once the page is idle it opens the device's batch and restores what a page
 * before it left; from then on every run is watched for the screen and for leaving) and returns its end.
 */
export class ConversionEngine {
  readonly queue: ConversionQueue;
  private readonly parts: EngineParts;
  private readonly events: EngineEvents;
  private screen: Promise<ScreenAwake> | null = null;
  private converting = false;

  constructor(parts: EngineParts, events: EngineEvents) {
    this.parts = parts;
    this.events = events;
    this.queue = new ConversionQueue({ convert: parts.convert, judge: parts.judge, onRunFinished: events.onRunFinished, onStorageFull: events.onStorageFull });
  }

  start(): () => void {
    let live = true;
    const cancelOpen = this.parts.whenIdle(() => {
      void this.openKeptBatch(() => live);
    });
    const unsubscribe = this.queue.subscribe(this.onQueueChange);
    this.onQueueChange();
    return () => {
      live = false;
      cancelOpen();
      unsubscribe();
      this.queue.dispose();
      this.setConverting(false);
      void this.screen?.then((screen) => this.parts.page?.document?.removeEventListener('visibilitychange', screen.onVisibilityChange));
    };
  }

  /** Opens the batch kept on the device, puts back what a page before this one left, and keeps this page's there. */
  private async openKeptBatch(live: () => boolean): Promise<void> {
    try {
      const batch = await (this.parts.openDeviceBatch ?? openDeviceBatch)();
      const restored = batch && live() ? await batch.attach(this.queue, this.parts.keepSource) : null;
      this.events.onBatchKept?.(batch ? 'device' : 'memory');
      if (restored && live()) this.events.onRestored(restored);
    } catch (error) {
      console.error('The batch kept on this device could not be opened', error);
    }
  }

  private readonly onQueueChange = (): void => this.setConverting(this.queue.isConverting());

  /**
   * A run starts or ends: the screen stays on while a job is pending or running, and where the batch is not kept on
   * the device (no storage for it, a full device, another tab keeping its own) leaving the page asks first.
   */
  private setConverting(converting: boolean): void {
    if (converting === this.converting) return;
    this.converting = converting;
    const page = this.parts.page;
    if (converting) {
      this.screen ??= (this.parts.screenAwake ?? loadScreenAwake)().then((screen) => {
        page?.document?.addEventListener('visibilitychange', screen.onVisibilityChange);
        return screen;
      });
      page?.addEventListener('beforeunload', this.askBeforeLeaving);
    } else {
      page?.removeEventListener('beforeunload', this.askBeforeLeaving);
    }
    // In order: each change waits for the same module, so a quick run's "off" never overtakes its "on".
    void this.screen?.then((screen) => screen.set(converting));
  }

  private readonly askBeforeLeaving = (event: BeforeUnloadEvent): void => {
    if (!this.queue.keepsOnDevice()) event.preventDefault();
  };
}
