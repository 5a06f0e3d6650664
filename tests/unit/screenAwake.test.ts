import { describe, expect, it } from 'vitest';
import { ScreenAwake } from '../../src/conversion/screenAwake.ts';

/**
 * A stand-in for the browser's WakeLock (Node has none): it grants or refuses, and its sentinels fire "release" as
 * the browser's do. What is under test is ScreenAwake's handling of them.
 */
class Sentinel extends EventTarget {
  released = false;
  readonly type = 'screen' as const;
  onrelease = null;
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.dispatchEvent(new Event('release'));
  }
}

function wakeLock({ refuse = false } = {}) {
  const sentinels: Sentinel[] = [];
  let grant: (() => void) | null = null;
  const lock = {
    sentinels,
    /** Requests wait for this when `hold` is set, to try a change of mind mid-request. */
    hold: false,
    grantNow: () => grant?.(),
    request: () =>
      new Promise<Sentinel>((resolve, reject) => {
        const answer = () => (refuse ? reject(new DOMException('refused', 'NotAllowedError')) : resolve(sentinels[sentinels.push(new Sentinel()) - 1]!));
        if (lock.hold) grant = answer;
        else answer();
      }),
  };
  return lock;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ScreenAwake', () => {
  it('holds a lock while wanted and lets it go after', async () => {
    const lock = wakeLock();
    const awake = new ScreenAwake(lock as unknown as WakeLock);
    awake.set(true);
    await settle();
    expect(awake.held).toBe(true);
    expect(lock.sentinels).toHaveLength(1);
    awake.set(false);
    await settle();
    expect(awake.held).toBe(false);
    expect(lock.sentinels[0]!.released).toBe(true);
  });

  it('asks once however often it is told', async () => {
    const lock = wakeLock();
    const awake = new ScreenAwake(lock as unknown as WakeLock);
    awake.set(true);
    awake.set(true);
    await settle();
    expect(lock.sentinels).toHaveLength(1);
  });

  it('lets go of a lock granted after it stopped being wanted', async () => {
    const lock = wakeLock();
    lock.hold = true;
    const awake = new ScreenAwake(lock as unknown as WakeLock);
    awake.set(true);
    awake.set(false);
    lock.grantNow();
    await settle();
    expect(awake.held).toBe(false);
    expect(lock.sentinels[0]!.released).toBe(true);
  });

  it('knows when the browser let the lock go (the page was hidden)', async () => {
    const lock = wakeLock();
    const awake = new ScreenAwake(lock as unknown as WakeLock);
    awake.set(true);
    await settle();
    await lock.sentinels[0]!.release();
    expect(awake.held).toBe(false);
  });

  it('goes on without a lock where it is refused or missing', async () => {
    const refused = new ScreenAwake(wakeLock({ refuse: true }) as unknown as WakeLock);
    refused.set(true);
    await settle();
    expect(refused.held).toBe(false);
    const missing = new ScreenAwake(undefined);
    missing.set(true);
    await settle();
    expect(missing.held).toBe(false);
  });
});
