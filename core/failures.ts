import { CONVERSION_ERRORS } from './messages.ts';

/**
 * Whether an error is an allocation that failed: a JS buffer (RangeError "Array buffer allocation failed"), a WASM
 * heap that could not grow (emscripten's "Cannot enlarge memory", "Aborted(OOM)"), or a canvas too large to back.
 */
export function isOutOfMemory(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /allocation failed|out of memory|\bOOM\b|cannot enlarge memory|memory\.grow|maximum memory size/i.test(`${error.name} ${error.message}`);
}

/** An allocation failure as the visitor's message; any other error unchanged. */
export function explainMemoryFailure(error: unknown): unknown {
  return isOutOfMemory(error) ? new Error(CONVERSION_ERRORS.memory) : error;
}
