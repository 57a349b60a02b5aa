import { RESOURCE_KINDS, type ResourceMime } from '@lms/contract/media';

/** Longest name kept, in characters, its ending included: a file system takes 255 bytes, and a list row stays readable. */
export const FILE_NAME_MAX = 120;

/**
 * The name a lecture's file downloads as, from the name the client sent: its last path part
 * (a client may send `C:\Users\…\notes.pdf` or `../../notes.pdf`), without control and format
 * characters (a right-to-left override can make `cod.exe.txt` read as `txt.exe.doc`), quotes, or
 * characters Windows refuses in a name, without leading or trailing dots and spaces, and ending
 * as its content is: a name whose ending does not fit the type gets the type's own added, so a
 * text file sent as `setup.bat` downloads as `setup.bat.txt` and never runs when opened.
 */
export function downloadName(sent: string | undefined, mime: ResourceMime): string {
  const endings: readonly string[] = RESOURCE_KINDS[mime];
  const cleaned = (sent ?? '')
    // Browsers send a name's quote and line breaks as %22, %0D and %0A (the HTML form encoding): characters dropped anyway.
    .replace(/%(22|0d|0a)/gi, '')
    .split(/[/\\]/)
    .pop()!
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/["'`<>:|?*]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  const dot = cleaned.lastIndexOf('.');
  const fits = dot >= 0 && endings.includes(cleaned.slice(dot + 1).toLowerCase());
  const stem = (fits ? cleaned.slice(0, dot) : cleaned).replace(/^[.\s]+|[.\s]+$/gu, '');
  const suffix = fits ? cleaned.slice(dot) : `.${endings[0]}`;
  // Cut by characters, never inside one (an emoji is two UTF-16 units), and keep the ending.
  const kept = Array.from(stem)
    .slice(0, FILE_NAME_MAX - suffix.length)
    .join('')
    .trimEnd();
  return `${kept || 'file'}${suffix}`;
}
