/**
 * Pictures (avatars and course thumbnails): the largest the server takes unless IMAGE_MAX_BYTES
 * says otherwise. The server writes the limit it runs with into the web app's page, in the meta
 * tag named below, so that a picture too large is refused when it is picked, not after its upload.
 */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MAX_BYTES_META = 'lms-image-max-bytes';
