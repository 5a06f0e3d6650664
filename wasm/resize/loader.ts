import resizeUrl from '@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm?url';
import { compileWasm, once } from '../once';

const resizer = once(async () => {
  const codec = await import('@jsquash/resize');
  await codec.initResize(await compileWasm(resizeUrl));
  return codec.default;
});

/** Lanczos3 in linear light with premultiplied alpha: Squoosh's best resampler for photos. */
export async function resizeLanczos3(image: ImageData, width: number, height: number): Promise<ImageData> {
  return (await resizer())(image, { width, height, method: 'lanczos3', fitMethod: 'stretch', premultiply: true, linearRGB: true });
}
