import { canonicalLanguage } from '@lms/contract/captions';
import { isValidMediaSignature, signMediaGrant, type MediaGrant } from './signed-urls.ts';
import { hlsFileKey, isHlsFolderKey, isMediaKey } from './storage.ts';

/**
 * URLs of a lecture's HLS ladder. The grant (viewer, expiry, signature over the folder key) sits
 * in the path, not the query: players resolve a playlist's relative URIs against the playlist's
 * own URL and drop its query, so a grant in the path reaches every rendition playlist and
 * segment without rewriting a byte of them. One signature covers the whole folder.
 *
 *   /media/hls/<viewer>.<expires>.<signature>/<32 hex>/master.m3u8
 *   /media/hls/<viewer>.<expires>.<signature>/<32 hex>/0_00001.ts
 *
 * The same URLs serve local disk and S3 (on S3 the route hands out presigned segment URLs).
 */
export const HLS_PREFIX = '/media/hls/';
export const MASTER_PLAYLIST = 'master.m3u8';

/** The master playlist's URL for `grant.viewerId` until `grant.expiresAt`; `grant.key` is the folder key `hls/<hex>`. */
export function hlsMasterUrl(secret: string, grant: MediaGrant): string {
  if (!isHlsFolderKey(grant.key)) throw new Error(`Not an HLS folder key: ${grant.key}`);
  const expires = Math.floor(grant.expiresAt.getTime() / 1000);
  return `${HLS_PREFIX}${grant.viewerId}.${expires}.${signMediaGrant(secret, grant)}/${grant.key.slice('hls/'.length)}/${MASTER_PLAYLIST}`;
}

export type HlsRequest = { grant: MediaGrant } & (
  | {
      /** The stored object asked for: `hls/<hex>/<name>`. */
      fileKey: string;
    }
  | {
      /** A subtitle rendition of the lecture's captions (hls-subtitles.ts), made as it is served: its playlist, or (with `version`) its file. */
      caption: HlsCaptionName;
    }
);

export interface HlsCaptionName {
  /** Canonical BCP 47. */
  language: string;
  version?: number;
}

const CAPTION_PLAYLIST = /^captions-([A-Za-z0-9-]{2,35})\.m3u8$/;
const CAPTION_FILE = /^captions-([A-Za-z0-9-]{2,35})-v([1-9]\d{0,8})\.vtt$/;

/**
 * `captions-<language>.m3u8` or `captions-<language>-v<version>.vtt`, the language written as
 * canonicalLanguage writes it (so that each rendition has one name); undefined for any other name.
 */
export function readCaptionName(name: string): HlsCaptionName | undefined {
  const playlist = CAPTION_PLAYLIST.exec(name);
  const file = playlist ? undefined : CAPTION_FILE.exec(name);
  const language = playlist?.[1] ?? file?.[1];
  if (!language || canonicalLanguage(language) !== language) return undefined;
  return file ? { language, version: Number(file[2]) } : { language };
}

const GRANT = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,11})\.([A-Za-z0-9_-]{43})$/;

/**
 * The grant and file (or caption rendition) of a path under HLS_PREFIX (`<grant>/<hex>/<name>`), if its signature is
 * genuine; undefined for anything malformed or forged. Expiry and the viewer's right to watch
 * are the caller's to check.
 */
export function readHlsPath(secret: string, rest: string): HlsRequest | undefined {
  const [grantPart, folder, name, ...more] = rest.split('/');
  if (more.length > 0 || !grantPart || !folder || !name) return undefined;
  const match = GRANT.exec(grantPart);
  const folderKey = `hls/${folder}`;
  const fileKey = hlsFileKey(folderKey, name);
  const caption = readCaptionName(name);
  if (!match || !isHlsFolderKey(folderKey) || (!caption && !isMediaKey(fileKey))) return undefined;
  const grant = { key: folderKey, viewerId: match[1]!, expiresAt: new Date(Number(match[2]) * 1000) };
  if (!isValidMediaSignature(secret, grant, match[3]!)) return undefined;
  return caption ? { grant, caption } : { grant, fileKey };
}
