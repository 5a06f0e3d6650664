import { describe, expect, it } from 'vitest';
import { starvationWatch } from '../../src/conversion/pools.ts';

describe('starvationWatch: when the conversions starve the page', () => {
  const alwaysCrowded = () => true;

  it('is a second long task within the window, not the first', () => {
    const starved = starvationWatch(alwaysCrowded, 2000);
    expect(starved(100)).toBe(false);
    expect(starved(1500)).toBe(true);
    expect(starved(3000)).toBe(true);
  });

  it('forgets a long task once the window has passed', () => {
    const starved = starvationWatch(alwaysCrowded, 2000);
    expect(starved(100)).toBe(false);
    expect(starved(5000)).toBe(false);
    expect(starved(6000)).toBe(true);
  });

  it('counts only long tasks while two or more jobs ran: one before is the page\'s own work, not the workers\'', () => {
    const crowdedFrom = 1000;
    const starved = starvationWatch((time) => time >= crowdedFrom, 2000);
    expect(starved(500)).toBe(false);
    // The first crowded one, half a second after one that was not.
    expect(starved(1100)).toBe(false);
    expect(starved(1900)).toBe(true);
  });
});
