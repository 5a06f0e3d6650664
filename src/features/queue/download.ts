import { zipInWorker } from '../../../workers/bridge';
import { uniqueFileNames } from '../../lib/fileNames';
import type { ConversionJob } from './jobs';

export const ZIP_FILE_NAME = 'converted-images.zip';

/** Saves a Blob under a file name; the object URL is revoked once the browser has taken it. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadJobOutput(job: ConversionJob): void {
  if (job.outputBlob && job.outputName) downloadBlob(job.outputBlob, job.outputName);
}

/** Every completed output in one zip, built in a worker; duplicate names become "photo (2).webp". */
export async function downloadAllAsZip(jobs: readonly ConversionJob[]): Promise<void> {
  const done = jobs.filter((job) => job.status === 'completed' && job.outputBlob && job.outputName);
  if (done.length === 0) return;
  const names = uniqueFileNames(done.map((job) => job.outputName!));
  const zip = await zipInWorker(done.map((job, i) => ({ name: names[i]!, file: job.outputBlob! })));
  downloadBlob(zip, ZIP_FILE_NAME);
}
