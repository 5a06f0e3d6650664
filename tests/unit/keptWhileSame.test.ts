import { describe, expect, it } from 'vitest';
import { sameEntries } from '../../src/app/useKeptWhileSame.ts';

describe('sameEntries: whether the file grid can keep the states it was given', () => {
  it('holds for the same values under the same keys, in any order', () => {
    expect(sameEntries(new Map([['a', 'ready'], ['b', 'converted']]), new Map([['b', 'converted'], ['a', 'ready']]))).toBe(true);
    expect(sameEntries(new Map(), new Map())).toBe(true);
  });

  it('fails for a value changed, a key gone or added, or a key standing where another was', () => {
    const before = new Map([['a', 'ready'], ['b', 'converting']]);
    expect(sameEntries(before, new Map([['a', 'ready'], ['b', 'converted']]))).toBe(false);
    expect(sameEntries(before, new Map([['a', 'ready']]))).toBe(false);
    expect(sameEntries(before, new Map([['a', 'ready'], ['b', 'converting'], ['c', 'ready']]))).toBe(false);
    expect(sameEntries(before, new Map([['a', 'ready'], ['c', 'converting']]))).toBe(false);
  });

  it('tells a key holding undefined from a key that is not there', () => {
    expect(sameEntries(new Map<string, string | undefined>([['a', undefined]]), new Map<string, string | undefined>([['b', undefined]]))).toBe(false);
  });
});
