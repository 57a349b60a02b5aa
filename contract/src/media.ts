/**
 * Pictures (avatars and course thumbnails): the largest the server takes unless IMAGE_MAX_BYTES
 * says otherwise. The server writes the limit it runs with into the web app's page, in the meta
 * tag named below, so that a picture too large is refused when it is picked, not after its upload.
 */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MAX_BYTES_META = 'lms-image-max-bytes';

/**
 * The avatar of an account without one of its own (administrators made from the command line): a
 * static file for any client, which the web app draws inline instead of asking for it.
 */
export const DEFAULT_AVATAR_URL = '/default-avatar.svg';

/**
 * Files attached to a lecture: the largest the server takes unless RESOURCE_MAX_BYTES says
 * otherwise, and how many one lecture may have.
 */
export const RESOURCE_MAX_BYTES = 100 * 1024 * 1024;
export const RESOURCES_PER_LECTURE = 20;

/**
 * What a lecture's file may be, as its content shows it (never its name), with the endings its
 * downloaded name may keep for each; a name with another ending gets the first one added, so that
 * "setup.bat" holding text is saved as "setup.bat.txt" and opens as text.
 */
export const RESOURCE_KINDS = {
  'application/pdf': ['pdf'],
  'application/zip': ['zip'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'text/plain': ['txt', 'md', 'csv', 'tsv', 'json', 'srt', 'vtt', 'log'],
} as const satisfies Record<string, readonly string[]>;
export type ResourceMime = keyof typeof RESOURCE_KINDS;
