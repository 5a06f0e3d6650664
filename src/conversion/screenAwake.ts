/**
 * Keeps the screen on while it is wanted (a batch converting), with the Screen Wake Lock API: a phone that locks
 * its screen mid-batch hides the page, and a hidden page's work is slowed or stopped. The browser lets the lock go
 * whenever the page is hidden; it is asked for again when the page is shown, while still wanted. Where the API is
 * missing or the browser refuses (battery saver, a page not in front), the batch goes on without it.
 */
export class ScreenAwake {
  private wanted = false;
  private sentinel: WakeLockSentinel | null = null;
  private asking: Promise<void> | null = null;

  constructor(private readonly wakeLock: WakeLock | undefined = globalThis.navigator?.wakeLock) {}

  /** Whether a lock is held now. */
  get held(): boolean {
    return this.sentinel !== null;
  }

  set(wanted: boolean): void {
    if (wanted === this.wanted) return;
    this.wanted = wanted;
    if (wanted) void this.ask();
    else this.letGo();
  }

  /** The page is shown again: the browser let the lock go when it was hidden. */
  readonly onVisibilityChange = (): void => {
    if (this.wanted && !this.sentinel && document.visibilityState === 'visible') void this.ask();
  };

  private ask(): Promise<void> {
    if (!this.wakeLock || this.sentinel) return Promise.resolve();
    this.asking ??= this.wakeLock
      .request('screen')
      .then(
        (sentinel) => {
          if (!this.wanted) return void sentinel.release().catch(() => {});
          this.sentinel = sentinel;
          sentinel.addEventListener('release', () => {
            if (this.sentinel === sentinel) this.sentinel = null;
          });
        },
        () => {},
      )
      .finally(() => (this.asking = null));
    return this.asking;
  }

  private letGo(): void {
    const sentinel = this.sentinel;
    this.sentinel = null;
    void sentinel?.release().catch(() => {});
  }
}
