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

export interface HlsRequest {
  grant: MediaGrant;
  /** The stored object asked for: `hls/<hex>/<name>`. */
  fileKey: string;
}

const GRANT = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,11})\.([A-Za-z0-9_-]{43})$/;

/**
 * The grant and file of a path under HLS_PREFIX (`<grant>/<hex>/<name>`), if its signature is
 * genuine; undefined for anything malformed or forged. Expiry and the viewer's right to watch
 * are the caller's to check.
 */
export function readHlsPath(secret: string, rest: string): HlsRequest | undefined {
  const [grantPart, folder, name, ...more] = rest.split('/');
  if (more.length > 0 || !grantPart || !folder || !name) return undefined;
  const match = GRANT.exec(grantPart);
  const folderKey = `hls/${folder}`;
  const fileKey = hlsFileKey(folderKey, name);
  if (!match || !isHlsFolderKey(folderKey) || !isMediaKey(fileKey)) return undefined;
  const grant = { key: folderKey, viewerId: match[1]!, expiresAt: new Date(Number(match[2]) * 1000) };
  return isValidMediaSignature(secret, grant, match[3]!) ? { grant, fileKey } : undefined;
}
