import { describe, expect, it } from 'vitest';
import { explainMemoryFailure, isOutOfMemory } from '../../core/failures.ts';

describe('which failures are memory running out', () => {
  it('recognises a buffer that could not be allocated and a WASM heap that could not grow', () => {
    expect(isOutOfMemory(new RangeError('Array buffer allocation failed'))).toBe(true);
    expect(isOutOfMemory(new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded'))).toBe(true);
    expect(isOutOfMemory(new Error('Aborted(OOM). Build with -sASSERTIONS for more info.'))).toBe(true);
    expect(isOutOfMemory(new Error('Cannot enlarge memory arrays to size 2147483648 bytes'))).toBe(true);
  });

  it('leaves other failures alone', () => {
    expect(isOutOfMemory(new Error('Failed to load image'))).toBe(false);
    expect(isOutOfMemory(new RangeError('Invalid array length'))).toBe(false);
    expect(isOutOfMemory(new TypeError('memory access out of bounds'))).toBe(false);
    expect(isOutOfMemory('out of memory')).toBe(false);
  });

  it('turns a memory failure into the visitor\'s message and passes anything else through unchanged', () => {
    expect(explainMemoryFailure(new RangeError('Array buffer allocation failed'))).toEqual(new Error('Not enough memory to convert this image'));
    const other = new Error('Failed to load image');
    expect(explainMemoryFailure(other)).toBe(other);
  });
});
