import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { FastifyRequest } from 'fastify';
import { answers } from '@lms/contract/answers';
import { AppError } from '../../errors.ts';

export interface UploadedForm<T> {
  /** Text fields by name; a prototype-less object, so `__proto__` is just another ignored name. */
  fields: Record<string, string>;
  /** What `receive` made of the file, when one came under the expected field name. */
  file?: T;
}

interface FormOptions<T> {
  fileField: string;
  maxBytes: number;
  tooLargeMessage: string;
  /** Consumes the file's stream as it arrives (into memory, or on to storage); `fileName` is the name the client sent, if any. */
  receive: (file: Readable & { truncated?: boolean }, fileName: string) => Promise<T>;
  /** Undoes `receive` when the form as a whole fails. */
  discard?: (file: T) => Promise<void>;
}

/**
 * Reads a multipart form of text fields and at most one file, which is handed to
 * `receive` while it streams in: fields may arrive before or after it. A file
 * under another field name is drained and ignored, so it counts as missing.
 * When anything fails after the file was received, `discard` undoes it.
 */
export async function readForm<T>(request: FastifyRequest, options: FormOptions<T>): Promise<UploadedForm<T>> {
  if (!request.isMultipart()) throw new AppError(415, answers.unsupportedContentType);
  const form: UploadedForm<T> = { fields: Object.create(null) as Record<string, string> };
  const parts = request.parts({ limits: { fileSize: options.maxBytes, files: 2, fields: 20, fieldSize: 64 * 1024 } });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') form.fields[part.fieldname] = part.value;
      } else if (part.fieldname === options.fileField && form.file === undefined) {
        form.file = await options.receive(part.file, part.filename).catch((error: unknown) => {
          // A file stream that broke (the client went away mid-upload) is the client's doing;
          // anything else, such as storage failing, is ours and stays a 500.
          throw part.file.errored && !(error instanceof AppError) ? new AppError(400, answers.malformedForm) : error;
        });
        // Past the limit the parser cuts the file short rather than failing it.
        if (part.file.truncated) throw new AppError(413, options.tooLargeMessage);
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    if (form.file !== undefined) await options.discard?.(form.file);
    throw toUploadError(error, options.tooLargeMessage);
  }
  return form;
}

/** A small image, held in memory to be re-encoded. An empty file counts as none. */
export async function readImageForm(request: FastifyRequest, { fileField, maxBytes }: { fileField: string; maxBytes: number }): Promise<UploadedForm<Buffer>> {
  const form = await readForm(request, { fileField, maxBytes, tooLargeMessage: answers.imageTooLarge, receive: buffer });
  if (form.file?.length === 0) delete form.file;
  return form;
}

/** Limits keep their status; a body the multipart parser cannot read (or that was cut off) is the client's fault. */
function toUploadError(error: unknown, tooLargeMessage: string): unknown {
  const { code, statusCode } = error as { code?: string; statusCode?: number };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError(413, tooLargeMessage);
  if (error instanceof AppError || (statusCode && statusCode < 500)) return error;
  if (isParserError(error)) return new AppError(400, answers.malformedForm);
  return error;
}

/** busboy's own complaints about the body: "Unexpected end of form", "Malformed part header", … */
const isParserError = (error: unknown) =>
  error instanceof Error && /unexpected end of (form|multipart data)|malformed|boundary|part header/i.test(error.message);

/** At least `size` bytes from the start of `stream` (fewer if it is shorter), leaving the rest unread: what content sniffing looks at. */
export async function readHead(stream: Readable, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= size) break;
  }
  return Buffer.concat(chunks);
}
