import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A test picture with some detail (gradient and blocks), so encoders have something to do. */
export async function picture(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#0a6"/><stop offset="1" stop-color="#c30"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#fe0"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A phone photo: JPEG with EXIF holding a GPS position and a camera model. */
export async function jpegWithGps(width = 2000, height = 1500): Promise<Buffer> {
  return sharp(await picture(width, height))
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: 'TestPhone', Model: 'Secret Model X' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2612/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3944/100' },
    })
    .toBuffer();
}

/** A JPEG stored sideways with EXIF Orientation 6 (turn 90° clockwise to view): stored width x height, shown height x width. */
export async function jpegSideways(width: number, height: number): Promise<Buffer> {
  return sharp(await picture(width, height)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
}

/** An animated GIF: `frames` frames of width x height, each a different colour (sharp joins them as an animation). */
export async function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const colours = ['#0a6', '#c30', '#36c', '#fc0', '#909'];
  const stills = await Promise.all(
    Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 3, background: colours[i % colours.length]! } }).png().toBuffer()),
  );
  return sharp(stills, { join: { animated: true } }).gif({ delay: 100, loop: 0 }).toBuffer();
}

export const samples = {
  png: async () => sharp(await picture(800, 500)).ensureAlpha(0.5).png().toBuffer(),
  webp: async () => sharp(await picture(1000, 700)).webp().toBuffer(),
  avif: async () => sharp(await picture(640, 480)).avif({ effort: 0 }).toBuffer(),
  gif: async () => sharp(await picture(300, 200)).gif().toBuffer(),
};

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A small, valid-looking PNG whose header claims width x height pixels (a decompression bomb's header). */
export function pngBombHeader(width = 20000, height = 20000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  // A few rows of zeros, highly compressed: the rest would decompress to 400 MB.
  const rows = deflateSync(Buffer.alloc((width + 1) * 4));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}

/** A plain PNG of width x height: tiny in bytes even when very tall (1 x 17,000 is under 1 KB). */
export async function plainPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#0a6' } }).png().toBuffer();
}

/**
 * An animated GIF of `frames` 1x1 frames, written byte by byte (23 bytes a frame): sharp would take seconds to join
 * thousands of stills. Header, a two-colour table, the looping extension, then per frame a delay and one pixel.
 */
export function tinyFramesGif(frames: number): Buffer {
  return framesOnCanvasGif(1, 1, frames);
}

/**
 * An animated GIF whose `frames` frames are each a width x height picture as a decoder sees it (the GIF's canvas), each
 * holding one pixel in its bytes: the header an upload's limits read, written in microseconds where sharp takes
 * seconds to encode as many full frames.
 */
export function framesOnCanvasGif(width: number, height: number, frames: number): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt16LE(width, 0);
  size.writeUInt16LE(height, 2);
  const header = Buffer.concat([Buffer.from('474946383961', 'hex'), size, Buffer.from('800000' + '000000ffffff', 'hex')]);
  const loop = Buffer.from('21ff0b' + Buffer.from('NETSCAPE2.0').toString('hex') + '0301000000', 'hex');
  // Graphic control (10 cs delay), image descriptor 1x1, LZW data: clear, the pixel (black or white by turns, so no
  // encoder merges them), end.
  const frame = (pixel: string) => Buffer.from('21f90404' + '0a000000' + '2c' + '0000000001000100' + '00' + `0202${pixel}0100`, 'hex');
  const [black, white] = [frame('44'), frame('4c')];
  return Buffer.concat([header, loop, ...Array.from({ length: frames }, (_, i) => (i % 2 ? white : black)), Buffer.from('3b', 'hex')]);
}
