import { crc32 } from 'node:zlib';
import { expect, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { sharpReadable } from '../independentDecoders.ts';
import { convertButton, enterEmail, saveDownload } from './helpers.ts';

export { exifOf, magicFormat, sharpReadable } from '../independentDecoders.ts';

/** Clicks Convert with a valid e-mail and waits until no job is pending or processing. */
export async function convertAll(page: Page, expectedJobs: number): Promise<void> {
  await enterEmail(page);
  await convertButton(page).click();
  await expect(page.getByTestId('job')).toHaveCount(expectedJobs);
  await expect(page.locator('[data-testid="job"][data-status="pending"], [data-testid="job"][data-status="processing"]')).toHaveCount(0);
}

/** Each entry's name and CRC-32 as the archive's central directory records them. */
function centralDirectory(zip: Buffer): Map<string, number> {
  const recorded = new Map<string, number>();
  for (let at = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])), offset = zip.readUInt32LE(at + 16), i = 0; i < zip.readUInt16LE(at + 10); i++) {
    expect(zip.readUInt32LE(offset)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(offset + 28);
    recorded.set(zip.toString('utf8', offset + 46, offset + 46 + nameLength), zip.readUInt32LE(offset + 16));
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return recorded;
}

/** Downloads the zip and returns its entries, after checking each entry's bytes against the CRC-32 the archive records. */
export async function downloadAllZip(page: Page): Promise<Record<string, Buffer>> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download All (.zip)' }).click()]);
  expect(download.suggestedFilename()).toBe('converted-images.zip');
  const zip = await saveDownload(download);
  const entries = Object.fromEntries(Object.entries(unzipSync(new Uint8Array(zip))).map(([name, bytes]) => [name, Buffer.from(bytes)]));
  const recorded = centralDirectory(zip);
  expect([...recorded.keys()].sort()).toEqual(Object.keys(entries).sort());
  for (const [name, bytes] of Object.entries(entries)) expect(crc32(bytes), `CRC of ${name}`).toBe(recorded.get(name));
  return entries;
}

export async function downloadJob(page: Page, outputName: string): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download ${outputName}` }).click()]);
  expect(download.suggestedFilename()).toBe(outputName);
  return saveDownload(download);
}

/** Decodes with sharp (libvips; djxl for JPEG XL), a decoder independent of the browser's. */
export async function decoded(bytes: Buffer) {
  const { data, info } = await sharp(sharpReadable(bytes)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pixel = (x: number, y: number) => {
    const i = (y * info.width + x) * 4;
    return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
  };
  const meanLuma = () => {
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) sum += 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!;
    return sum / (data.length / 4);
  };
  return { width: info.width, height: info.height, pixel, meanLuma };
}
