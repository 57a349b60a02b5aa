import { IMAGE_MAX_BYTES, IMAGE_MAX_BYTES_META } from '@lms/contract/media';

/** The picture formats the server takes (thumbnails: jpeg and png; avatars also svg). */
export type ImageKind = 'jpeg' | 'png' | 'svg';

const MIME: Record<ImageKind, string> = { jpeg: 'image/jpeg', png: 'image/png', svg: 'image/svg+xml' };
const EXTENSIONS: Record<ImageKind, string[]> = { jpeg: ['jpg', 'jpeg'], png: ['png'], svg: ['svg'] };

/** The first bytes, read as the browser's file API allows (jsdom's Blob has no arrayBuffer()). */
function head(file: Blob, length: number): Promise<Uint8Array> {
  const part = file.slice(0, length);
  if (typeof part.arrayBuffer === 'function') return part.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(part);
  });
}

/** What the bytes say the file is, as the server checks it: the format's signature, not the name. */
function kindOf(bytes: Uint8Array): ImageKind | undefined {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  // SVG is text: an XML declaration, comments or a doctype may come before the <svg element.
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('<') && /<svg[\s>/]/i.test(text)) return 'svg';
  return undefined;
}

/**
 * Whether `file` is a picture of one of `kinds`, by its stated type (or name, when the system gives
 * no type) and by its first bytes, so that a renamed PDF is refused at once rather than by the server
 * after the upload.
 */
export async function isImageOf(file: File, kinds: readonly ImageKind[]): Promise<boolean> {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  const stated = file.type ? kinds.some((kind) => MIME[kind] === file.type) : kinds.some((kind) => EXTENSIONS[kind].includes(extension));
  if (!stated) return false;
  try {
    const kind = kindOf(await head(file, 1024));
    return kind !== undefined && kinds.includes(kind);
  } catch {
    return false;
  }
}

/**
 * Puts `file` back into a file input (or empties it), so that what the input shows is the choice
 * the form keeps after a refused pick. Browsers without a settable FileList just empty it.
 */
export function showFileIn(input: HTMLInputElement, file: File | null | undefined) {
  try {
    if (file && typeof DataTransfer === 'function') {
      const transfer = new DataTransfer();
      transfer.items.add(file);
      input.files = transfer.files;
      return;
    }
  } catch {
    // Fall through: an empty input rather than the refused file.
  }
  input.value = '';
}

/**
 * The largest picture the server takes: what it wrote into the page (IMAGE_MAX_BYTES as it runs
 * with it), else the contract's default (a page not served by it, as Vite's dev server's).
 */
export function imageMaxBytes(): number {
  const written = Number(document.querySelector<HTMLMetaElement>(`meta[name="${IMAGE_MAX_BYTES_META}"]`)?.content);
  return Number.isSafeInteger(written) && written > 0 ? written : IMAGE_MAX_BYTES;
}

const MB = 1024 * 1024;

/**
 * A size as people read it, rounded up so that a file just over a limit never reads as the limit
 * itself: "5 MB", "7.3 MB", "200 KB".
 */
export function fileSize(bytes: number): string {
  if (bytes >= MB) return `${Math.ceil((bytes / MB) * 10) / 10} MB`;
  return `${Math.max(1, Math.ceil(bytes / 1024))} KB`;
}
