import { buffer } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Sharp } from 'sharp';
import { answers } from '@lms/contract/answers';
import type { Settings } from '@lms/contract/settings';
import type { Context } from '../../context.ts';
import { siteSettings } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { currentUser } from '../auth/guards.ts';
import { startsAsSvg } from '../media/images.ts';
import { saveLogoPicture } from '../media/storage.ts';
import { readForm } from '../media/upload.ts';
import { sizeLimitText } from '../resources/resources.service.ts';
import { readSettings } from './settings.service.ts';
import { ICON_SIZES, writeSettings, type IconSize, type StoredLogo } from './site-settings.ts';

/**
 * The site's logo: taken as SVG, PNG or WebP, judged by its content, and never served as it came.
 * Every file of it is drawn again by sharp: the logo itself (PNG, or WebP for a WebP) no larger
 * than LOGO_BOX, and a square PNG icon for each of ICON_SIZES. Drawing an SVG leaves its scripts,
 * event handlers, links and external references behind, so nothing of ours (local media is served
 * from the site's own origin) ever runs what an upload carried.
 */

/** The largest logo kept: wide enough for a word mark, taller than any header shows it, even at 3× pixel density. */
export const LOGO_BOX = { width: 1024, height: 512 } as const;
/** The largest picture decoded: a small file may declare enormous dimensions (a pixel bomb). */
const MAX_INPUT_PIXELS = 25_000_000;
/** iOS shows a transparent Apple touch icon on black: that one gets a white background. */
const APPLE_TOUCH_ICON: IconSize = 180;

type LogoKind = 'svg' | 'png' | 'webp';
type LogoPicture = { bytes: Buffer; type: { ext: 'png' | 'webp'; mime: 'image/png' | 'image/webp' } };

/** What an uploaded logo really is, by its bytes, never by its name or declared type. */
async function logoKindOf(bytes: Buffer): Promise<LogoKind | undefined> {
  // Loaded with the first upload rather than at start-up.
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(bytes);
  if (type?.ext === 'png' || type?.ext === 'webp') return type.ext;
  if ((!type || type.ext === 'xml') && startsAsSvg(bytes.subarray(0, 4096).toString('utf8'))) return 'svg';
  return undefined;
}

/**
 * The decoder for `bytes`. An SVG is drawn at 72 dpi unless told otherwise, so a logo made on a
 * 24 × 24 viewBox would come out 24 pixels wide and blur when scaled up: it is drawn instead at
 * the density that makes it fill LOGO_BOX.
 */
async function decoder(bytes: Buffer, kind: LogoKind): Promise<Sharp> {
  const { default: sharp } = await import('sharp');
  if (kind !== 'svg') return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS });
  const { width, height } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  const scale = width && height ? Math.min(LOGO_BOX.width / width, LOGO_BOX.height / height) : 1;
  // sharp takes densities from 1 to 100 000; the pixel limit stops what is still too big.
  const density = Math.min(100_000, Math.max(1, 72 * scale));
  return sharp(bytes, { density, limitInputPixels: MAX_INPUT_PIXELS });
}

/** The logo as kept, and its icons by size; a 400 when the bytes are not a picture sharp can draw. */
export async function drawLogo(bytes: Buffer): Promise<{ logo: LogoPicture & { width: number; height: number }; icons: Record<IconSize, Buffer> }> {
  const kind = await logoKindOf(bytes);
  if (!kind) throw new AppError(400, answers.logoNotImage);
  const { default: sharp } = await import('sharp');
  try {
    const resized = (await decoder(bytes, kind)).rotate().resize({ ...LOGO_BOX, fit: 'inside', withoutEnlargement: true });
    const type = kind === 'webp' ? ({ ext: 'webp', mime: 'image/webp' } as const) : ({ ext: 'png', mime: 'image/png' } as const);
    const encoded = await (type.ext === 'webp' ? resized.webp({ quality: 90, alphaQuality: 100 }) : resized.png({ compressionLevel: 9 })).toBuffer({
      resolveWithObject: true,
    });
    const icon = async (size: IconSize) => {
      const background = size === APPLE_TOUCH_ICON ? { r: 255, g: 255, b: 255, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 };
      let square = sharp(encoded.data).resize(size, size, { fit: 'contain', background });
      if (size === APPLE_TOUCH_ICON) square = square.flatten({ background });
      return [size, await square.png({ compressionLevel: 9 }).toBuffer()] as const;
    };
    const icons = Object.fromEntries(await Promise.all(ICON_SIZES.map(icon))) as Record<IconSize, Buffer>;
    return { logo: { bytes: encoded.data, type, width: encoded.info.width, height: encoded.info.height }, icons };
  } catch {
    // Bytes that start like a picture but do not draw as one, or draw far too large.
    throw new AppError(400, answers.logoNotImage);
  }
}

/** Every stored file of a logo: the logo and its icons. */
export const logoKeys = (logo: StoredLogo): string[] => [logo.key, ...ICON_SIZES.map((size) => logo.icons[size])];

/** The logo the database names now (not this instance's copy, which may be a moment behind). */
async function storedLogo(ctx: Context): Promise<StoredLogo | null> {
  const [row] = await ctx.db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, 'logo'));
  return (row?.value as StoredLogo | undefined) ?? null;
}

/**
 * Removes files no row names any more. Should one removal fail, or the process die first, the
 * media sweep removes it later (leftovers.ts reads the logo's row), so a failure is not the request's.
 */
async function removeFiles(ctx: Context, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => ctx.media.remove(key).catch(() => undefined)));
}

/** Stores every picture, or none: what was stored before a failure is removed again. */
async function storeLogo(ctx: Context, drawn: Awaited<ReturnType<typeof drawLogo>>): Promise<StoredLogo> {
  const keys: string[] = [];
  const save = async (picture: LogoPicture) => {
    const key = await saveLogoPicture(ctx.media, picture.bytes, picture.type);
    keys.push(key);
    return key;
  };
  try {
    const png = { ext: 'png', mime: 'image/png' } as const;
    const key = await save(drawn.logo);
    const icons = {} as Record<IconSize, string>;
    for (const size of ICON_SIZES) icons[size] = await save({ bytes: drawn.icons[size], type: png });
    return { key, mime: drawn.logo.type.mime, width: drawn.logo.width, height: drawn.logo.height, icons };
  } catch (error) {
    await removeFiles(ctx, keys);
    throw error;
  }
}

/** The logo, checked by its content, stored with the icons made from it; the previous logo's files go once the new one is saved. */
export async function setLogo(ctx: Context, request: FastifyRequest): Promise<Settings> {
  const by = currentUser(request).id;
  const maxBytes = ctx.config.imageMaxBytes;
  const form = await readForm(request, { fileField: 'logo', maxBytes, tooLargeMessage: answers.logoTooLarge(sizeLimitText(maxBytes)), receive: buffer });
  if (!form.file || form.file.length === 0) throw new AppError(400, answers.logoMissing);
  const stored = await storeLogo(ctx, await drawLogo(form.file));
  const previous = await storedLogo(ctx);
  try {
    await writeSettings(ctx, [['logo', stored]], by);
  } catch (error) {
    // The write may have been committed before what failed (hearing the change): then its files stay.
    if ((await storedLogo(ctx).catch(() => null))?.key !== stored.key) await removeFiles(ctx, logoKeys(stored));
    throw error;
  }
  if (previous && previous.key !== stored.key) await removeFiles(ctx, logoKeys(previous));
  return readSettings(ctx);
}

/** Back to no logo: the row goes, then its files; the pages show the product's own icons again. */
export async function removeLogo(ctx: Context, by: string): Promise<Settings> {
  const previous = await storedLogo(ctx);
  await writeSettings(ctx, [['logo', null]], by);
  if (previous) await removeFiles(ctx, logoKeys(previous));
  return readSettings(ctx);
}
