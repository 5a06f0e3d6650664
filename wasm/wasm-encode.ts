import { isOutOfMemory } from '../core/failures.ts';
import { CONVERSION_ERRORS } from '../core/messages.ts';

/** Runs a WASM encoder, reporting its failure with the catalogue's message. */
export async function wasmEncode(run: () => Promise<ArrayBuffer>): Promise<ArrayBuffer> {
  try {
    return await run();
  } catch (error) {
    console.error('WASM encoder failed', error);
    throw new Error(isOutOfMemory(error) ? CONVERSION_ERRORS.memory : CONVERSION_ERRORS.compression);
  }
}
