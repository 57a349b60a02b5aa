import { AppError } from '../../errors.ts';

export type ImageKind = 'jpg' | 'png' | 'svg';

// An SVG is text: after an optional XML declaration, comments and doctype, an <svg> element.
const SVG_START = /^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i;

/** What an uploaded image really is, judged by its bytes, never by its name. */
export async function detectImageKind(bytes: Buffer): Promise<ImageKind | undefined> {
  // Loaded with the first upload rather than at start-up.
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(bytes);
  if (type?.ext === 'jpg' || type?.ext === 'png') return type.ext;
  if ((!type || type.ext === 'xml') && SVG_START.test(bytes.subarray(0, 4096).toString('utf8'))) return 'svg';
  return undefined;
}

/**
 * Re-encodes an image to a bounded WebP. Rasterising also disarms an SVG:
 * scripts, links and external references do not survive.
 */
export async function reencodeImage(
  bytes: Buffer,
  { accept, size, rejectMessage }: { accept: readonly ImageKind[]; size: { width: number; height: number }; rejectMessage: string },
): Promise<Buffer> {
  const kind = await detectImageKind(bytes);
  if (!kind || !accept.includes(kind)) throw new AppError(400, rejectMessage);
  const { default: sharp } = await import('sharp');
  try {
    return await sharp(bytes, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize({ ...size, fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    // Bytes that start like an image but do not decode as one.
    throw new AppError(400, rejectMessage);
  }
}

export const AVATAR_SIZE = { width: 256, height: 256 };
