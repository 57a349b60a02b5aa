/**
 * How a file to save is answered, by our download route (local storage) and by the bucket
 * (presigned response overrides): never kept by a shared cache, and not by the browser either,
 * since the link is one viewer's and their access is checked again on every request.
 */
export const DOWNLOAD_CACHE_CONTROL = 'private, no-store';

/**
 * The Content-Disposition of a file to save rather than show (RFC 6266): `attachment`, the name
 * in plain ASCII for old clients (`filename`), and the name itself in UTF-8 (`filename*`, RFC
 * 8187, which replaced RFC 5987), which every current browser prefers. `fileName` is already a
 * safe name (no path, no control characters, no quotes); what a quoted string cannot hold is
 * replaced here all the same, so a header is never broken by a name.
 */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${asciiFallback(fileName)}"; filename*=UTF-8''${encodeAttrValue(fileName)}`;
}

/** "Résumé — 2026.pdf" as "Resume _ 2026.pdf": accents dropped, anything else outside printable ASCII replaced. */
function asciiFallback(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      // `%` too: some clients percent-decode the plain parameter.
      .replace(/[^\x20-\x7e]|["\\%]/gu, '_')
  );
}

/** Percent-encoding of every byte outside RFC 8187's attr-char (encodeURIComponent leaves `'()*` as they are). */
const encodeAttrValue = (name: string) => encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
