import { vi } from 'vitest';

/**
 * vi.waitFor with no limit of its own but the test's (vitest.config.ts): what is waited for is the code's state, which
 * a busy machine reaches later, not a failure. vi.waitFor's own default gives up after a second.
 */
export const waitUntil = <T>(callback: () => T | Promise<T>): Promise<T> => vi.waitFor(callback, { timeout: 60_000, interval: 20 });
