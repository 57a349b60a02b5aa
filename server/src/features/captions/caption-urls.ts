import { isValidMediaSignature, signMediaGrant, type MediaGrant } from '../media/signed-urls.ts';

/**
 * URLs of a lecture's caption files (WebVTT, for `<track>` and the transcript), made as an HLS
 * ladder's are: the grant (viewer, expiry, signature) in the path, signed with the session secret
 * over `captions/<captionId>`, a name no stored object has (stored keys are 32 hex digits, a
 * caption's id is a UUID with dashes), so the signature of one kind of link opens nothing else.
 * The version is in the path so that a new file is a new URL, and a browser may cache each one.
 *
 *   /media/captions/<viewer>.<expires>.<signature>/<captionId>/<version>.vtt
 */
export const CAPTIONS_PREFIX = '/media/captions/';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const PATH = new RegExp(`^(${UUID})\\.(\\d{1,11})\\.([A-Za-z0-9_-]{43})/(${UUID})/([1-9]\\d{0,8})\\.vtt$`);

const grantKey = (captionId: string) => `captions/${captionId}`;

export interface CaptionFileRequest {
  grant: MediaGrant;
  captionId: string;
  version: number;
}

/** The caption file's URL for `viewerId` until `expiresAt`. */
export function captionFileUrl(
  secret: string,
  { captionId, version, viewerId, expiresAt }: Omit<CaptionFileRequest, 'grant'> & Omit<MediaGrant, 'key'>,
): string {
  const grant = { key: grantKey(captionId), viewerId, expiresAt };
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${CAPTIONS_PREFIX}${viewerId}.${expires}.${signMediaGrant(secret, grant)}/${captionId}/${version}.vtt`;
}

/**
 * The grant, caption and version of a path under CAPTIONS_PREFIX, if its signature is genuine;
 * undefined for anything malformed or forged. Expiry and the viewer's right to read are the caller's.
 */
export function readCaptionPath(secret: string, rest: string): CaptionFileRequest | undefined {
  const match = PATH.exec(rest);
  if (!match) return undefined;
  const [, viewerId, expires, signature, captionId, version] = match as unknown as [string, string, string, string, string, string];
  const grant = { key: grantKey(captionId), viewerId, expiresAt: new Date(Number(expires) * 1000) };
  return isValidMediaSignature(secret, grant, signature) ? { grant, captionId, version: Number(version) } : undefined;
}
