import { zipInWorker } from '../../conversion/bridge.ts';
import { pathInFolder, uniqueFileNames } from '../../lib/fileNames.ts';
import type { ConversionJob } from '../../conversion/jobs.ts';

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

/** A completed job with its output in hand. */
export function hasOutput(job: ConversionJob): job is ConversionJob & { outputBlob: Blob; outputName: string } {
  return job.status === 'completed' && job.outputBlob !== null && job.outputName !== null;
}

/**
 * Every completed output, named as it is taken away together: duplicates become "photo (2).webp". In a zip
 * (`inFolders`) each goes in the folder its source sat in ("Holiday/Beach/photo.webp"); shared files have names only.
 */
export function completedOutputs(jobs: readonly ConversionJob[], { inFolders }: { inFolders: boolean }): { id: string; name: string; blob: Blob; crc32: number | null }[] {
  const done = jobs.filter(hasOutput);
  const names = uniqueFileNames(done.map((job) => (inFolders ? pathInFolder(job.folder, job.outputName) : job.outputName)));
  return done.map((job, i) => ({ id: job.id, name: names[i]!, blob: job.outputBlob, crc32: job.outputCrc32 }));
}

/** Every completed output in one zip, built in a worker; the jobs whose outputs it holds. */
export async function downloadAllAsZip(jobs: readonly ConversionJob[]): Promise<string[]> {
  const outputs = completedOutputs(jobs, { inFolders: true });
  if (outputs.length === 0) return [];
  const zip = await zipInWorker(outputs.map(({ name, blob, crc32 }) => ({ name, file: blob, crc32 })));
  downloadBlob(zip, ZIP_FILE_NAME);
  return outputs.map(({ id }) => id);
}
