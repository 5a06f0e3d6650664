import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { shownThumbnail } from '../fixtures/oriented.ts';
import { CORPUS_DIR, corpusMode, MANIFEST, type CorpusFile, type Manifest } from './manifest.ts';
import { extractedPackage, PACKAGES } from './sources.ts';
import { makeBases, TOOLS, VARIANTS } from './variants.ts';

/**
 * Assembles the conformance corpus in tests/corpus/.generated: real images from Debian packages (sources.ts) and
 * variants made from them with the tools that write each layout in the wild (variants.ts), each with its expected
 * display size and a thumbnail of how it looks from sharp, an independent decoder. Packages are cached in ~/.cache/pixel-converter-corpus (or
 * CORPUS_CACHE); a corpus already built from the same recipe is kept.
 */

const here = dirname(fileURLToPath(import.meta.url));

/** What the corpus is built from: a different recipe or mode builds it again. */
function recipe(mode: string): string {
  const hash = createHash('sha256').update(mode);
  for (const file of ['build.ts', 'sources.ts', 'variants.ts', 'manifest.ts', '../fixtures/oriented.ts']) hash.update(readFileSync(join(here, file)));
  return hash.digest('hex').slice(0, 16);
}

function checkTools(): void {
  const missing = Object.entries(TOOLS).filter(([tool]) => {
    try {
      execFileSync('sh', ['-c', `command -v '${tool}'`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map(([, pkg]) => pkg))].join(' ');
  throw new Error(`The corpus's variants need ${missing.map(([tool]) => tool).join(', ')}: apt-get install -y ${packages}`);
}

function fail(message: string): never {
  throw new Error(message);
}

/** Regular files under a folder (symbolic links left out: packages link one image under many names). */
function* filesUnder(folder: string): Generator<string> {
  for (const entry of readdirSync(folder).sort()) {
    const path = join(folder, entry);
    const stat = lstatSync(path);
    if (stat.isDirectory()) yield* filesUnder(path);
    else if (stat.isFile()) yield path;
  }
}

/**
 * The file's own name, kept unique across the corpus by its stem (outputs are named by stem: "a.png" and "a.jpeg"
 * both give "a.webp"): a stem already taken gets its folders added, nearest first, then its extension.
 */
function uniqueName(pathInPackage: string, taken: Set<string>): string {
  const folders = pathInPackage.split('/').filter(Boolean);
  const file = folders.pop()!;
  const dot = file.lastIndexOf('.');
  const [stem, extension] = [file.slice(0, dot), file.slice(dot + 1)];
  const candidates = [stem];
  for (let depth = 1; depth <= folders.length; depth++) candidates.push([...folders.slice(-depth), stem].join('-'));
  candidates.push(`${candidates.at(-1)}-${extension}`);
  const name = candidates.find((candidate) => !taken.has(candidate)) ?? fail(`No unique name for ${pathInPackage}`);
  taken.add(name);
  return `${name}.${extension}`;
}

/** A file decoded by its format's own tool (heif-convert, djxl: both take the input and the output's path), as PNG bytes. */
function decodedToPng(tool: string, path: string): Buffer {
  const png = `${path}.decoded.png`;
  try {
    execFileSync(tool, [path, png], { stdio: ['ignore', 'ignore', 'pipe'] });
    return readFileSync(png);
  } finally {
    rmSync(png, { force: true });
  }
}

async function describe(path: string, name: string, source: string): Promise<CorpusFile> {
  const bytes = lstatSync(path).size;
  const entry = { path: relative(CORPUS_DIR, path), name, source, bytes };
  if (bytes < 100) return { ...entry, expect: 'too small' };
  // The size a viewer shows (EXIF orientation applied), from a decoder that is not the browser's; a file it cannot
  // decode whole is damaged, and the app may refuse it or convert what it can, but must say which.
  try {
    // sharp reads no BMP, HEVC or JPEG XL: ImageMagick, heif-convert and djxl decode them (to a PNG) for it.
    const input = path.endsWith('.bmp') ? execFileSync('/usr/bin/convert', [path, 'PNG32:-'], { maxBuffer: 1 << 30 }) : path.endsWith('.heic') ? decodedToPng('heif-convert', path) : path.endsWith('.jxl') ? decodedToPng('djxl', path) : path;
    const { info } = await sharp(input, { failOn: 'error', limitInputPixels: false }).rotate().raw().toBuffer({ resolveWithObject: true });
    return { ...entry, expect: 'converts', width: info.width, height: info.height, thumbnail: (await shownThumbnail(input)).toString('base64') };
  } catch {
    return { ...entry, expect: 'damaged' };
  }
}

async function main(): Promise<void> {
  const mode = corpusMode();
  const stamp = recipe(mode);
  if (existsSync(MANIFEST)) {
    const built = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
    if (built.recipe === stamp) {
      console.log(`The ${mode} corpus is built: ${built.files.length} files in ${relative(process.cwd(), CORPUS_DIR)}`);
      return;
    }
  }
  checkTools();
  rmSync(CORPUS_DIR, { recursive: true, force: true });
  mkdirSync(CORPUS_DIR, { recursive: true });
  const files: CorpusFile[] = [];
  const seen = new Set<string>();
  const stems = new Set<string>();

  for (const source of PACKAGES) {
    const subset = source.subset;
    if (mode === 'subset' && !subset) continue;
    const root = extractedPackage(source.name);
    const folder = join(CORPUS_DIR, 'packages', source.name);
    mkdirSync(folder, { recursive: true });
    for (const path of filesUnder(root)) {
      const inPackage = '/' + relative(root, path);
      if (!source.take.test(inPackage) || (mode === 'subset' && !subset!.test(inPackage))) continue;
      const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
      if (seen.has(digest)) continue;
      seen.add(digest);
      const name = uniqueName(inPackage, stems);
      const target = join(folder, name);
      copyFileSync(path, target);
      files.push(await describe(target, name, `${source.name}: ${inPackage}`));
    }
  }

  const ukui = extractedPackage('ukui-wallpapers');
  const inputs = {
    photo: join(ukui, 'usr/share/backgrounds/the-mouse.jpg'),
    withIcc: join(ukui, 'usr/share/backgrounds/string.jpg'),
    work: join(CORPUS_DIR, '.work'),
  };
  mkdirSync(inputs.work, { recursive: true });
  makeBases(inputs);
  const made = VARIANTS.map((variant) => {
    const name = uniqueName(variant.name, stems);
    const target = join(CORPUS_DIR, 'variants', dirname(variant.name), name);
    mkdirSync(dirname(target), { recursive: true });
    return { variant, name, target };
  });
  // Two at a time, one a core: the tools' runs are most of the build, and each runs on its own (docs/testing.md).
  const waiting = [...made];
  const maker = async () => {
    for (let next = waiting.shift(); next; next = waiting.shift()) await next.variant.make(inputs, next.target);
  };
  await Promise.all([maker(), maker()]);
  for (const { variant, name, target } of made) files.push(await describe(target, name, `variant of ukui-wallpapers' the-mouse.jpg: ${variant.how}`));
  rmSync(inputs.work, { recursive: true, force: true });

  const manifest: Manifest = { recipe: stamp, mode, files };
  writeFileSync(MANIFEST, JSON.stringify(manifest, null, 2));
  const counts = (['converts', 'damaged', 'too small'] as const).map((expect) => `${files.filter((file) => file.expect === expect).length} ${expect}`);
  console.log(`Built the ${mode} corpus: ${files.length} files (${counts.join(', ')}) in ${relative(process.cwd(), CORPUS_DIR)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
