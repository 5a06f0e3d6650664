/**
 * How many tasks a WorkerPool runs at once: its capacity, one fewer for a batch whose page said it is slow
 * (PoolOptions.yieldsForBatch), one fewer for a while after the page was starved (yieldOne), and none while a
 * batch's question is being asked. Why a page gets a core back: docs/decisions/leave-the-page-a-core.md.
 */
export class PoolWidth {
  /** Whether this batch runs one task fewer, asked afresh as each batch starts; 'asking' until the answer comes. */
  private forBatch: boolean | 'asking' = false;
  /** Counts batches, so an answer that comes after its batch is over is not applied to the next. */
  private batch = 0;
  /** Until when one task fewer runs (yieldOne), as performance.now(); 0 when not. */
  private yieldingUntil = 0;
  private yieldTimer: ReturnType<typeof setTimeout> | null = null;
  /** Since when two or more tasks have been running, as performance.now(); null while fewer are. */
  private crowdedSince: number | null = null;

  /** `onWider` is called when more tasks may run than a moment ago. */
  constructor(
    private readonly capacity: number,
    private readonly onWider: () => void,
  ) {}

  /** How many tasks may run at once now. */
  get tasks(): number {
    if (this.forBatch === 'asking') return 0;
    const yielding = this.forBatch || this.yieldingUntil > performance.now();
    return yielding ? Math.max(1, this.capacity - 1) : this.capacity;
  }

  /** Whether a batch's question (is the page slow?) is being asked now: nothing should disturb the page meanwhile. */
  get asking(): boolean {
    return this.forBatch === 'asking';
  }

  /** A batch starts: no task runs until `ask` has answered, asked once `before` (the warm-ups under way) is over. */
  startBatch(ask: () => Promise<boolean>, before: Promise<unknown>): void {
    const batch = ++this.batch;
    this.forBatch = 'asking';
    const answer = (yields: boolean) => {
      if (batch !== this.batch) return;
      this.forBatch = yields;
      this.onWider();
    };
    void before.then(() => ask()).then(answer, () => answer(false));
  }

  /** One task fewer for the next `forMs` milliseconds; a later call extends it. Nothing running is stopped. */
  yieldOne(forMs: number): void {
    this.yieldingUntil = Math.max(this.yieldingUntil, performance.now() + forMs);
    if (this.yieldTimer) clearTimeout(this.yieldTimer);
    this.yieldTimer = setTimeout(() => {
      this.yieldTimer = null;
      this.yieldingUntil = 0;
      this.onWider();
    }, this.yieldingUntil - performance.now());
  }

  /** Told how many tasks run, after each start and end. */
  noteRunning(tasks: number): void {
    if (tasks >= 2 && this.crowdedSince === null) this.crowdedSince = performance.now();
    if (tasks < 2) this.crowdedSince = null;
  }

  /** Whether two or more tasks were running at `time` (performance.now()) and still are. */
  crowdedAt(time: number): boolean {
    return this.crowdedSince !== null && time >= this.crowdedSince;
  }
}
