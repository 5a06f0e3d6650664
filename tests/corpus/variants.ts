import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The layouts cameras, phones and editors write that the packages may lack, made from one of their photographs with
 * the tools that write them in the wild: ExifTool (orientation, extended XMP, ICC, thumbnails, PNG eXIf), ImageMagick
 * (progressive, subsampling, CMYK, grey, 16-bit and palette PNG, PNG text chunks), libjpeg-turbo's jpegtran (restart
 * markers), libwebp's cwebp/img2webp/webpmux (lossy, lossless, alpha, animation, metadata chunks) and libavif's
 * avifenc (8/10/12-bit, 4:4:4, alpha, EXIF/XMP/ICC, irot from orientation, grids); libheif's heif-enc (8- and
 * 10-bit HEIC); libjxl's cjxl (lossy, lossless, alpha, a recompressed JPEG); and ImageMagick's TIFF (LZW, Deflate, none, 16-bit, grey, alpha, big-endian, pages, Orientation),
 * BMP (Windows
 * 3 and V5, OS/2, palette, RLE8) and GIF (still, transparent, interlaced, animated), the sources only the browser decodes.
 */

/** The tools the variants need, by the Debian package that has each. */
export const TOOLS: Record<string, string> = {
  exiftool: 'libimage-exiftool-perl',
  '/usr/bin/convert': 'imagemagick',
  jpegtran: 'libjpeg-turbo-progs',
  cwebp: 'webp',
  img2webp: 'webp',
  webpmux: 'webp',
  avifenc: 'libavif-bin',
  'heif-enc': 'libheif-examples',
  'heif-convert': 'libheif-examples',
  cjxl: 'libjxl-tools',
  djxl: 'libjxl-tools',
};

export interface VariantInputs {
  /** A real photograph (a JPEG from the packages) the variants are made from. */
  photo: string;
  /** A real JPEG that carries an ICC profile. */
  withIcc: string;
  /** A scratch folder for intermediate files. */
  work: string;
}

export interface Variant {
  /** Its path in the corpus. */
  name: string;
  /** How it was made, for a failure's message. */
  how: string;
  make: (inputs: VariantInputs, out: string) => Promise<unknown>;
}

const runNow = (command: string, args: readonly string[]) => execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
/** A tool's run that leaves this process free: the build makes two variants at a time (build.ts). */
const run = (command: string, args: readonly string[]) => promisify(execFile)(command, args, { maxBuffer: 1 << 30 });
// Debian's ImageMagick 6 by path: a `convert` earlier on PATH may be something else.
const magick = (...args: string[]) => run('/usr/bin/convert', args);
const exiftool = (...args: string[]) => run('exiftool', ['-q', '-q', ...args]);
const magickNow = (...args: string[]) => runNow('/usr/bin/convert', args);
const exiftoolNow = (...args: string[]) => runNow('exiftool', ['-q', '-q', ...args]);

/** An intermediate file, made once per build by makeBases. */
const base = (inputs: VariantInputs, name: string): string => join(inputs.work, name);

/** Bases shared by the variants: a 1200-wide JPEG, an 800 × 500 PNG, the same with a gradient alpha, three frames. */
export function makeBases(inputs: VariantInputs): void {
  magickNow(inputs.photo, '-resize', '1200x', '-quality', '90', base(inputs, 'base.jpg'));
  magickNow(inputs.photo, '-resize', '800x500!', base(inputs, 'base.png'));
  magickNow(base(inputs, 'base.png'), '(', '-size', '800x500', 'gradient:white-black', ')', '-alpha', 'off', '-compose', 'CopyOpacity', '-composite', base(inputs, 'base-alpha.png'));
  for (const [i, crop] of ['800x500+0+0', '800x500+200+100', '800x500+400+200'].entries()) {
    magickNow(inputs.photo, '-resize', '1200x', '-crop', crop, '+repage', base(inputs, `frame-${i}.png`));
  }
  writeFileSync(base(inputs, 'profile.icc'), execFileSync('exiftool', ['-b', '-ICC_Profile', inputs.withIcc]));
  writeFileSync(base(inputs, 'description.txt'), 'A long caption, as an editor keeps a history in XMP. '.repeat(6000));
  magickNow(base(inputs, 'base.jpg'), '-resize', '160x', base(inputs, 'thumbnail.jpg'));
  exiftoolNow('-o', base(inputs, 'with-exif.jpg'), '-Make=Pixel Converter Corpus', '-Model=Test Camera', '-DateTimeOriginal=2026:11:24 12:00:00', '-Orientation#=1', base(inputs, 'base.jpg'));
}

const orientations: Variant[] = [1, 2, 3, 4, 5, 6, 7, 8].map((orientation) => ({
  name: `jpeg/exif-orientation-${orientation}.jpg`,
  how: `exiftool -Orientation#=${orientation}`,
  make: (inputs, out) => exiftool('-o', out, `-Orientation#=${orientation}`, base(inputs, 'with-exif.jpg')),
}));

/**
 * PngSuite's size images (s01–s09: 1 × 1 to 9 × 9, a 2-bit palette, interlaced and not), which Go's copy of PngSuite
 * lacks: the photograph squeezed to each size and quantised to four colours, as ImageMagick writes them. In a long
 * batch such files once failed where alone they converted (an image under 8 × 8 was judged, and the metric threw).
 */
export const PNG_SIZES: readonly Variant[] = [1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((side) =>
  (['none', 'PNG'] as const).map((interlace) => ({
    name: `png/size-${side}${interlace === 'PNG' ? '-interlaced' : ''}.png`,
    how: `as PngSuite's size images: ImageMagick -resize ${side}x${side}! -colors 4, a 2-bit palette${interlace === 'PNG' ? ', Adam7' : ''}`,
    make: (inputs: VariantInputs, out: string) =>
      magick(base(inputs, 'base.png'), '-resize', `${side}x${side}!`, '-colors', '4', '-interlace', interlace, '-define', 'png:bit-depth=2', `PNG8:${out}`),
  })),
);

export const VARIANTS: readonly Variant[] = [
  ...orientations,
  {
    name: 'jpeg/extended-xmp.jpg',
    how: 'exiftool: a 300 KB XMP description, written as standard plus extended XMP APP1 segments before the frame',
    make: (inputs, out) => exiftool('-o', out, `-XMP-dc:Description<=${base(inputs, 'description.txt')}`, base(inputs, 'with-exif.jpg')),
  },
  {
    name: 'jpeg/icc-thumbnail-iptc.jpg',
    how: 'exiftool: an ICC profile (APP2), an EXIF thumbnail, IPTC (Photoshop APP13) and XMP',
    make: (inputs, out) =>
      exiftool('-o', out, `-ICC_Profile<=${base(inputs, 'profile.icc')}`, `-ThumbnailImage<=${base(inputs, 'thumbnail.jpg')}`, '-IPTC:Caption-Abstract=Corpus', '-XMP-dc:Title=Corpus', base(inputs, 'with-exif.jpg')),
  },
  {
    name: 'jpeg/progressive.jpg',
    how: 'ImageMagick -interlace Plane',
    make: (inputs, out) => magick(base(inputs, 'with-exif.jpg'), '-interlace', 'Plane', out),
  },
  {
    name: 'jpeg/restart-markers.jpg',
    how: 'jpegtran -restart 1 -copy all (an RSTn marker after every MCU row)',
    make: (inputs, out) => run('jpegtran', ['-restart', '1', '-copy', 'all', '-outfile', out, base(inputs, 'with-exif.jpg')]),
  },
  {
    name: 'jpeg/progressive-restart-markers.jpg',
    how: 'jpegtran -progressive -restart 2B -copy all',
    make: (inputs, out) => run('jpegtran', ['-progressive', '-restart', '2B', '-copy', 'all', '-outfile', out, base(inputs, 'with-exif.jpg')]),
  },
  { name: 'jpeg/subsampling-444.jpg', how: 'ImageMagick -sampling-factor 4:4:4', make: (inputs, out) => magick(base(inputs, 'base.jpg'), '-sampling-factor', '4:4:4', out) },
  { name: 'jpeg/subsampling-422.jpg', how: 'ImageMagick -sampling-factor 4:2:2', make: (inputs, out) => magick(base(inputs, 'base.jpg'), '-sampling-factor', '4:2:2', out) },
  { name: 'jpeg/grey.jpg', how: 'ImageMagick -colorspace Gray', make: (inputs, out) => magick(base(inputs, 'base.jpg'), '-colorspace', 'Gray', out) },
  {
    name: 'jpeg/cmyk.jpg',
    how: "ImageMagick -colorspace CMYK (Adobe APP14, inverted CMYK as Photoshop writes it)",
    make: (inputs, out) => magick(base(inputs, 'base.jpg'), '-colorspace', 'CMYK', out),
  },
  { name: 'jpeg/comment.jpg', how: 'ImageMagick -comment (a COM segment)', make: (inputs, out) => magick(base(inputs, 'base.jpg'), '-comment', 'Saved by the corpus', out) },

  { name: 'png/rgb-16-bit.png', how: 'ImageMagick PNG48', make: (inputs, out) => magick(base(inputs, 'base.png'), '-depth', '16', `PNG48:${out}`) },
  { name: 'png/rgba-16-bit.png', how: 'ImageMagick PNG64', make: (inputs, out) => magick(base(inputs, 'base-alpha.png'), '-depth', '16', `PNG64:${out}`) },
  { name: 'png/rgba-8-bit.png', how: 'ImageMagick PNG32', make: (inputs, out) => magick(base(inputs, 'base-alpha.png'), `PNG32:${out}`) },
  { name: 'png/palette.png', how: 'ImageMagick PNG8 (PLTE, 256 colours)', make: (inputs, out) => magick(base(inputs, 'base.png'), `PNG8:${out}`) },
  { name: 'png/palette-transparent.png', how: 'ImageMagick PNG8 with tRNS', make: (inputs, out) => magick(base(inputs, 'base-alpha.png'), `PNG8:${out}`) },
  { name: 'png/grey-16-bit.png', how: 'ImageMagick grey, 16 bits', make: (inputs, out) => magick(base(inputs, 'base.png'), '-colorspace', 'Gray', '-depth', '16', out) },
  { name: 'png/interlaced.png', how: 'ImageMagick -interlace PNG (Adam7)', make: (inputs, out) => magick(base(inputs, 'base.png'), '-interlace', 'PNG', out) },
  ...PNG_SIZES,
  {
    name: 'png/chunks-before-data.png',
    how: 'ImageMagick and exiftool: iCCP, gAMA, cHRM, pHYs, tEXt, zTXt, iTXt (XMP) and eXIf before IDAT',
    make: async (inputs, out) => {
      const tagged = join(inputs.work, 'chunks.png');
      await magick(base(inputs, 'base.png'), '-profile', base(inputs, 'profile.icc'), '-density', '300', '-units', 'PixelsPerInch', '-set', 'comment', 'A tEXt comment', '-define', 'png:include-chunk=all', tagged);
      await exiftool('-o', out, '-PNG:Title=A compressed title', '-PNG:Compress=1', '-XMP-dc:Title=An iTXt title', '-EXIF:Artist=Corpus', '-EXIF:Orientation#=1', tagged);
    },
  },
  {
    name: 'png/exif-orientation-6.png',
    how: 'exiftool: an eXIf chunk whose orientation turns the image',
    make: (inputs, out) => exiftool('-o', out, '-EXIF:Orientation#=6', base(inputs, 'base.png')),
  },

  { name: 'webp/lossy.webp', how: 'cwebp -q 80', make: (inputs, out) => run('cwebp', ['-quiet', '-q', '80', base(inputs, 'base.png'), '-o', out]) },
  { name: 'webp/lossless.webp', how: 'cwebp -lossless', make: (inputs, out) => run('cwebp', ['-quiet', '-lossless', base(inputs, 'base.png'), '-o', out]) },
  { name: 'webp/lossy-alpha.webp', how: 'cwebp -q 80 (VP8X, ALPH)', make: (inputs, out) => run('cwebp', ['-quiet', '-q', '80', base(inputs, 'base-alpha.png'), '-o', out]) },
  { name: 'webp/lossless-alpha.webp', how: 'cwebp -lossless with alpha', make: (inputs, out) => run('cwebp', ['-quiet', '-lossless', base(inputs, 'base-alpha.png'), '-o', out]) },
  {
    name: 'webp/metadata.webp',
    how: 'cwebp -metadata all from a JPEG with EXIF, ICC and XMP (VP8X with ICCP, EXIF and XMP chunks)',
    make: async (inputs, out) => {
      const source = join(inputs.work, 'webp-metadata.jpg');
      await exiftool('-o', source, `-ICC_Profile<=${base(inputs, 'profile.icc')}`, '-XMP-dc:Title=Corpus', base(inputs, 'with-exif.jpg'));
      await run('cwebp', ['-quiet', '-q', '80', '-metadata', 'all', source, '-o', out]);
    },
  },
  {
    name: 'webp/animated.webp',
    how: 'img2webp: three lossy frames (ANIM, ANMF)',
    make: (inputs, out) => run('img2webp', ['-loop', '0', '-lossy', '-q', '70', '-d', '400', base(inputs, 'frame-0.png'), base(inputs, 'frame-1.png'), base(inputs, 'frame-2.png'), '-o', out]),
  },
  {
    name: 'webp/animated-mixed.webp',
    how: 'img2webp -mixed: lossless and lossy frames',
    make: (inputs, out) => run('img2webp', ['-mixed', '-d', '200', base(inputs, 'frame-0.png'), base(inputs, 'frame-1.png'), base(inputs, 'frame-2.png'), '-o', out]),
  },

  { name: 'avif/8-bit-420.avif', how: 'avifenc -d 8 -y 420', make: (inputs, out) => avifenc(inputs, out, ['-d', '8', '-y', '420']) },
  { name: 'avif/10-bit-420.avif', how: 'avifenc -d 10 -y 420', make: (inputs, out) => avifenc(inputs, out, ['-d', '10', '-y', '420']) },
  { name: 'avif/10-bit-444.avif', how: 'avifenc -d 10 -y 444', make: (inputs, out) => avifenc(inputs, out, ['-d', '10', '-y', '444']) },
  { name: 'avif/12-bit-420.avif', how: 'avifenc -d 12 -y 420', make: (inputs, out) => avifenc(inputs, out, ['-d', '12', '-y', '420']) },
  { name: 'avif/alpha.avif', how: 'avifenc from a PNG with alpha (an auxiliary alpha item)', make: (inputs, out) => avifenc(inputs, out, ['-d', '8'], base(inputs, 'base-alpha.png')) },
  { name: 'avif/10-bit-alpha.avif', how: 'avifenc -d 10 with alpha', make: (inputs, out) => avifenc(inputs, out, ['-d', '10'], base(inputs, 'base-alpha.png')) },
  {
    name: 'avif/exif-xmp-icc.avif',
    how: "avifenc from a JPEG with EXIF, XMP and ICC (it carries them over: Exif, mime and colr items)",
    make: async (inputs, out) => {
      const source = join(inputs.work, 'avif-metadata.jpg');
      await exiftool('-o', source, `-ICC_Profile<=${base(inputs, 'profile.icc')}`, '-XMP-dc:Title=Corpus', base(inputs, 'with-exif.jpg'));
      await avifenc(inputs, out, ['-d', '8'], source);
    },
  },
  {
    name: 'avif/orientation-6.avif',
    how: 'avifenc from a JPEG whose EXIF orientation is 6 (written as irot)',
    make: async (inputs, out) => {
      const source = join(inputs.work, 'avif-oriented.jpg');
      await exiftool('-o', source, '-Orientation#=6', base(inputs, 'with-exif.jpg'));
      await avifenc(inputs, out, ['-d', '8'], source);
    },
  },
  {
    name: 'avif/grid-2x2.avif',
    how: 'avifenc --grid 2x2 (the primary item is a grid of four tiles)',
    make: (inputs, out) => avifenc(inputs, out, ['-d', '8', '--grid', '2x2']),
  },
  // The sources only. HEIC as libheif's encoder writes it (x265): 8-bit, and 10-bit from a 16-bit PNG.
  { name: 'heic/8-bit.heic', how: 'heif-enc -q 80 (x265)', make: (inputs, out) => run('heif-enc', ['-q', '80', '-o', out, base(inputs, 'base.png')]) },
  {
    name: 'heic/10-bit.heic',
    how: 'heif-enc -b 10 -q 80 from a 16-bit PNG',
    make: async (inputs, out) => {
      await magick(base(inputs, 'base.png'), '-depth', '16', `PNG48:${base(inputs, 'base-16.png')}`);
      await run('heif-enc', ['-b', '10', '-q', '80', '-o', out, base(inputs, 'base-16.png')]);
    },
  },
  // JPEG XL as libjxl's cjxl writes it: lossy (a bare codestream), lossless, with alpha, and a JPEG recompressed
  // losslessly (in a container, with its reconstruction data).
  { name: 'jxl/lossy.jxl', how: 'cjxl -d 1', make: (inputs, out) => run('cjxl', [base(inputs, 'base.png'), out, '-d', '1', '--quiet']) },
  { name: 'jxl/lossless.jxl', how: 'cjxl -d 0', make: (inputs, out) => run('cjxl', [base(inputs, 'base.png'), out, '-d', '0', '--quiet']) },
  { name: 'jxl/alpha.jxl', how: 'cjxl -d 1 from a PNG with alpha', make: (inputs, out) => run('cjxl', [base(inputs, 'base-alpha.png'), out, '-d', '1', '--quiet']) },
  { name: 'jxl/recompressed-jpeg.jxl', how: 'cjxl from a JPEG (lossless recompression, jbrd box)', make: (inputs, out) => run('cjxl', [base(inputs, 'base.jpg'), out, '--quiet']) },
  // TIFF as ImageMagick's libtiff writes it, which only Safari decodes: each compression, 16-bit, grey, alpha, both byte
  // orders, several pages, and an Orientation tag.
  { name: 'tiff/rgb-lzw.tiff', how: 'ImageMagick -compress LZW', make: (inputs, out) => magick(base(inputs, 'base.png'), '-compress', 'LZW', out) },
  { name: 'tiff/rgba-deflate.tiff', how: 'ImageMagick -compress Zip, with alpha', make: (inputs, out) => magick(base(inputs, 'base-alpha.png'), '-compress', 'Zip', out) },
  { name: 'tiff/rgb-16-bit.tiff', how: 'ImageMagick -depth 16 -compress None', make: (inputs, out) => magick(base(inputs, 'base.png'), '-depth', '16', '-compress', 'None', out) },
  { name: 'tiff/grey.tiff', how: 'ImageMagick -colorspace Gray -compress LZW', make: (inputs, out) => magick(base(inputs, 'base.png'), '-colorspace', 'Gray', '-compress', 'LZW', out) },
  { name: 'tiff/big-endian.tiff', how: 'ImageMagick -define tiff:endian=msb', make: (inputs, out) => magick(base(inputs, 'base.png'), '-define', 'tiff:endian=msb', '-compress', 'LZW', out) },
  {
    name: 'tiff/multi-page.tiff',
    how: 'ImageMagick: three pages, LZW (the first converts)',
    make: (inputs, out) => magick(...[0, 1, 2].map((i) => base(inputs, `frame-${i}.png`)), '-compress', 'LZW', out),
  },
  {
    name: 'tiff/orientation-6.tiff',
    how: 'exiftool -Orientation#=6 on an LZW TIFF',
    make: async (inputs, out) => {
      await magick(base(inputs, 'base.png'), '-compress', 'LZW', out);
      await exiftool('-overwrite_original', '-Orientation#=6', out);
    },
  },
  // BMP as Windows, OS/2 and editors write it, GIF still and animated: the browser decodes them.
  { name: 'bmp/24-bit.bmp', how: 'ImageMagick BMP3 (BITMAPINFOHEADER, 24-bit, bottom-up)', make: (inputs, out) => magick(base(inputs, 'base.png'), `BMP3:${out}`) },
  { name: 'bmp/32-bit-alpha.bmp', how: 'ImageMagick BMP (a V5 header, 32-bit with an alpha mask)', make: (inputs, out) => magick(base(inputs, 'base-alpha.png'), `BMP:${out}`) },
  { name: 'bmp/8-bit-palette.bmp', how: 'ImageMagick BMP3, 256 colours', make: (inputs, out) => magick(base(inputs, 'base.png'), '-colors', '256', '-type', 'Palette', `BMP3:${out}`) },
  { name: 'bmp/rle8.bmp', how: 'ImageMagick BMP3, 256 colours, RLE8', make: (inputs, out) => magick(base(inputs, 'base.png'), '-colors', '256', '-type', 'Palette', '-compress', 'RLE', `BMP3:${out}`) },
  { name: 'bmp/os2.bmp', how: 'ImageMagick BMP2 (an OS/2 header)', make: (inputs, out) => magick(base(inputs, 'base.png'), `BMP2:${out}`) },
  { name: 'gif/still.gif', how: 'ImageMagick GIF (256 colours, dithered)', make: (inputs, out) => magick(base(inputs, 'base.png'), out) },
  { name: 'gif/transparent.gif', how: 'ImageMagick GIF from a PNG with alpha (one transparent colour)', make: (inputs, out) => magick(base(inputs, 'base-alpha.png'), out) },
  { name: 'gif/interlaced.gif', how: 'ImageMagick -interlace GIF', make: (inputs, out) => magick(base(inputs, 'base.png'), '-interlace', 'GIF', out) },
  {
    name: 'gif/animated.gif',
    how: 'ImageMagick: three frames, -delay 20 -loop 0 (a NETSCAPE2.0 looping extension)',
    make: (inputs, out) => magick('-delay', '20', ...[0, 1, 2].map((i) => base(inputs, `frame-${i}.png`)), '-loop', '0', out),
  },
];

function avifenc(inputs: VariantInputs, out: string, options: string[], source = base(inputs, 'base.png')) {
  return run('avifenc', ['-s', '8', '-j', '2', '--min', '20', '--max', '30', ...options, source, out]);
}
