import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the conformance corpus's real images come from: Debian packages, fetched with `apt-get download` (no root,
 * no install) at the versions the machine's package lists name. Each package says which of its files are taken,
 * and which of those also belong to the subset `npm test` runs; the full corpus is `CORPUS=full npm run test:corpus`.
 */
export interface PackageSource {
  /** The Debian binary package. */
  name: string;
  /** What the files are, for the note a failure prints. */
  what: string;
  /** The package's files (paths inside it) taken into the corpus. */
  take: RegExp;
  /** Those of them in the subset `npm test` converts; absent: none. */
  subset?: RegExp;
}

const IMAGE = /\.(jpe?g|png|webp|avif)$/i;

export const PACKAGES: readonly PackageSource[] = [
  {
    name: 'ukui-wallpapers',
    what: 'photographs and artwork saved by photo editors (one JPEG has its frame header 7 MB in, behind extended XMP)',
    take: IMAGE,
    subset: /\/(rhythm\.jpg|goldfish\.png|string\.jpg|city\.png)$/,
  },
  {
    name: 'gnome-backgrounds',
    what: "GNOME 43's wallpapers: large lossy and lossless WebP",
    take: IMAGE,
    subset: /\/(symbolic-d|truchet-l)\.webp$/,
  },
  {
    name: 'golang-1.19-src',
    what: "Go's image test data: PngSuite (every PNG colour type and depth, palettes, transparency, filters, interlacing) and JPEGs in every chroma subsampling, progressive, CMYK, RGB, grey and truncated",
    take: /\/src\/image\/(png\/testdata\/pngsuite\/[^/]+\.png|testdata\/[^/]+\.(jpeg|png))$/,
    subset: /./,
  },
  {
    name: 'golang-golang-x-image-dev',
    what: "golang.org/x/image's test data: lossy WebP with each loop filter, lossless WebP, 1-bit WebP",
    take: /\/x\/image\/testdata\/[^/]+\.(webp|png|jpeg)$/,
    subset: /\.webp$/,
  },
  { name: 'sway-backgrounds', what: "sway's wallpapers: large PNG, portrait and landscape", take: IMAGE },
  { name: 'mate-backgrounds', what: "MATE's wallpapers: photographs up to 5640 × 3172 (32 MP) and artwork", take: IMAGE },
  { name: 'desktop-base', what: "Debian's themes: logos, login and boot-screen artwork", take: IMAGE },
  { name: 'lomiri-wallpapers', what: "Lomiri's wallpapers", take: IMAGE },
  { name: 'plasma-workspace-wallpapers', what: "KDE Plasma's wallpapers: one artwork at many sizes up to 5K", take: IMAGE },
];

/** Where fetched packages are kept between runs: ~/.cache/pixel-converter-corpus, or CORPUS_CACHE. */
const cache = process.env.CORPUS_CACHE || join(homedir(), '.cache', 'pixel-converter-corpus');

/** The package's files, extracted once into the cache: its .deb fetched with apt-get download (no root needed). */
export function extractedPackage(name: string): string {
  const target = join(cache, 'extracted', name);
  if (existsSync(target)) return target;
  const debs = join(cache, 'debs');
  mkdirSync(debs, { recursive: true });
  const find = () => readdirSync(debs).find((file) => file.startsWith(`${name}_`) && file.endsWith('.deb'));
  // As root, apt hands the download to its _apt user, who cannot write in root's cache: root keeps it.
  const sandbox = process.getuid?.() === 0 ? ['-o', 'APT::Sandbox::User=root'] : [];
  if (!find()) execFileSync('apt-get', ['download', '-q', ...sandbox, name], { cwd: debs, stdio: ['ignore', 'ignore', 'inherit'] });
  const deb = find();
  if (!deb) throw new Error(`apt-get download ${name} left no .deb in ${debs}`);
  const partial = `${target}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execFileSync('dpkg-deb', ['-x', join(debs, deb), partial]);
  renameSync(partial, target);
  return target;
}

/**
 * Real photos as a phone's gallery holds them, the files as they are: 1.3 to 9.2 MP, progressive and baseline, with
 * XMP, ICC profiles and embedded thumbnails (ukui's five photographs saved by Photoshop, MATE's three progressive
 * ones). What the phone scenario and the phone's end-to-end test convert: a re-encoded photo has none of this.
 */
export function galleryPhotos(): string[] {
  const ukui = join(extractedPackage('ukui-wallpapers'), 'usr', 'share', 'backgrounds');
  const mate = join(extractedPackage('mate-backgrounds'), 'usr', 'share', 'backgrounds', 'mate');
  const paths = [
    ...['rhythm.jpg', 'string.jpg', '2004default.jpg', 'firstgeneration.jpg', 'the-mouse.jpg'].map((name) => join(ukui, name)),
    join(mate, 'nature', 'FreshFlower.jpg'),
    join(mate, 'nature', 'GreenMeadow.jpg'),
    join(mate, 'abstract', 'Elephants.jpg'),
  ];
  const missing = paths.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`The corpus's gallery photos are not where expected: ${missing.join(', ')}`);
  return paths;
}
