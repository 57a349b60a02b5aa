import { Readable } from 'node:stream';
import { answers } from '@lms/contract/answers';
import { RESOURCE_KINDS, type ResourceMime } from '@lms/contract/media';
import { AppError } from '../../errors.ts';
import { readHead } from '../media/upload.ts';

/** What the first bytes of a PDF, ZIP or picture are judged by (file-type reads no further for these). */
const HEAD_BYTES = 4100;

/** A file whose content was judged: its type, its key's extension, and its bytes to store, counted as they pass. */
export interface CheckedResource {
  mime: ResourceMime;
  ext: string;
  body: Readable;
  /** How many bytes have passed through `body` so far: all of them once it has been stored. */
  bytes(): number;
}

const isResourceMime = (mime: string | undefined): mime is Exclude<ResourceMime, 'text/plain'> =>
  mime !== undefined && mime !== 'text/plain' && Object.hasOwn(RESOURCE_KINDS, mime);

/**
 * Judges an uploaded file by its content as it streams, whatever its name says, in one pass:
 * its first bytes name a PDF, ZIP or picture (file-type), or else every byte must be UTF-8 text
 * without a NUL, checked chunk by chunk as the file goes on to storage. A file refused by its
 * first bytes is refused before anything is stored; text that turns out not to be text further
 * on makes `body` fail, which makes the store fail and leave nothing (MediaStorage.put).
 * `file.truncated` is busboy's mark of a file cut at the size limit: that one is the size
 * limit's refusal (413), not a text cut in the middle of a character.
 */
export async function checkResourceContent(file: Readable & { truncated?: boolean }): Promise<CheckedResource> {
  const head = await readHead(file, HEAD_BYTES);
  if (head.length === 0) throw refuse(file, answers.resourceEmpty);
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = (await fileTypeFromBuffer(head))?.mime;
  let bytes = 0;

  if (isResourceMime(detected)) {
    async function* unchanged() {
      bytes += head.length;
      yield head;
      for await (const chunk of file as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        yield chunk;
      }
    }
    return { mime: detected, ext: RESOURCE_KINDS[detected][0], body: Readable.from(unchanged(), { objectMode: false }), bytes: () => bytes };
  }

  // Not a type file-type knows: text, or refused. Decoding in stream mode carries a character
  // split across two chunks over to the next one, so the check is linear whatever the chunking.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const isText = (chunk: Buffer) => {
    if (chunk.includes(0)) return false;
    try {
      decoder.decode(chunk, { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  if (!isText(head)) throw refuse(file, answers.resourceType);
  async function* checkedText() {
    bytes += head.length;
    yield head;
    for await (const chunk of file.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      if (!isText(chunk)) throw refuse(file, answers.resourceType);
      bytes += chunk.length;
      yield chunk;
    }
    // A character left unfinished at the very end; a file cut at the size limit is refused for its size instead.
    if (!file.truncated) {
      try {
        decoder.decode();
      } catch {
        throw refuse(file, answers.resourceType);
      }
    }
  }
  return { mime: 'text/plain', ext: RESOURCE_KINDS['text/plain'][0], body: Readable.from(checkedText(), { objectMode: false }), bytes: () => bytes };
}

/** The refusal, after reading the rest of the file away: the multipart parser moves on only once this part is consumed. */
function refuse(file: Readable, message: string): AppError {
  file.resume();
  return new AppError(400, message);
}
