import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Local private media (lecture videos) is reached through URLs signed with the
 * session secret: the signature covers the object key, the viewer it was made
 * for and the expiry, so a URL cannot be stretched, moved to another video or
 * handed to someone else.
 */
/**
 * The viewer named in the URL of a free preview lecture: anyone. No account has this id
 * (ids are random version-4 UUIDs), and the media route lets it through only while the
 * video belongs to a lecture that is still a preview.
 */
export const ANY_VIEWER = '00000000-0000-0000-0000-000000000000';

export interface MediaGrant {
  key: string;
  viewerId: string;
  expiresAt: Date;
  /**
   * A file to save rather than show (a lecture's resource): the name and type it is served with.
   * A presigned bucket URL carries them as response overrides; local storage's download route
   * reads them from the file's row, so they are not part of the signature.
   */
  download?: { fileName: string; contentType: string };
}

const payload = ({ key, viewerId, expiresAt }: MediaGrant) => `${key}\n${viewerId}\n${Math.floor(expiresAt.getTime() / 1000)}`;

export function signMediaGrant(secret: string, grant: MediaGrant): string {
  return createHmac('sha256', secret).update(payload(grant)).digest('base64url');
}

/** Whether `signature` was made by `signMediaGrant` for exactly this grant; constant-time. */
export function isValidMediaSignature(secret: string, grant: MediaGrant, signature: string): boolean {
  const expected = Buffer.from(signMediaGrant(secret, grant));
  const actual = Buffer.from(signature);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
