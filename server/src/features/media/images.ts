import { AppError } from '../../errors.ts';

export type ImageKind = 'jpg' | 'png' | 'svg';

/**
 * Whether text starts as an SVG document does: an optional byte-order mark and XML
 * declaration, any comments, doctypes and white space, then an <svg> element. A scan
 * that only moves forward, so its time is linear in the text: the regular expression it
 * replaces backtracked exponentially on repeated comments (`<!---->` × 40 + `x` took hours).
 */
export function startsAsSvg(text: string): boolean {
  let at = text.startsWith('\uFEFF') ? 1 : 0;
  const skipSpace = () => {
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  };
  /** Moves past the next `end`; false when there is none. */
  const skipPast = (end: string) => {
    const found = text.indexOf(end, at);
    if (found < 0) return false;
    at = found + end.length;
    return true;
  };
  skipSpace();
  if (text.startsWith('<?xml', at) && !skipPast('>')) return false;
  for (;;) {
    skipSpace();
    if (text.startsWith('<!--', at)) {
      at += '<!--'.length;
      if (!skipPast('-->')) return false;
    } else if (text.slice(at, at + '<!DOCTYPE'.length).toUpperCase() === '<!DOCTYPE') {
      if (!skipPast('>')) return false;
    } else {
      break;
    }
  }
  return text.slice(at, at + 4).toLowerCase() === '<svg' && (at + 4 === text.length || text[at + 4] === '>' || isSpace(text.charCodeAt(at + 4)));
}

/** XML's white space: space, tab, carriage return, line feed. */
const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;

/** What an uploaded image really is, judged by its bytes, never by its name. */
export async function detectImageKind(bytes: Buffer): Promise<ImageKind | undefined> {
  // Loaded with the first upload rather than at start-up.
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(bytes);
  if (type?.ext === 'jpg' || type?.ext === 'png') return type.ext;
  if ((!type || type.ext === 'xml') && startsAsSvg(bytes.subarray(0, 4096).toString('utf8'))) return 'svg';
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
