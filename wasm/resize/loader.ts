import resizeUrl from '@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm?url';
import { compileWasm, once } from '../once.ts';
import { LANCZOS3_OPTIONS } from './options.ts';

const resizer = once(async () => {
  const codec = await import('@jsquash/resize');
  await codec.initResize(await compileWasm(resizeUrl));
  return codec.default;
});

/** Resamples with LANCZOS3_OPTIONS. */
export async function resizeLanczos3(image: ImageData, width: number, height: number): Promise<ImageData> {
  return (await resizer())(image, { width, height, ...LANCZOS3_OPTIONS });
}
