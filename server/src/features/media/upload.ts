import type { FastifyRequest } from 'fastify';
import { messages } from '@lms/contract/messages';
import { AppError } from '../../errors.ts';

export interface UploadedForm {
  /** Text fields by name; a prototype-less object, so `__proto__` is just another ignored name. */
  fields: Record<string, string>;
  file?: Buffer;
}

/**
 * Reads a multipart form holding text fields and at most one small file (an image),
 * which is held in memory to be re-encoded. A file under another field name is
 * drained and ignored, so it counts as missing.
 */
export async function readImageForm(
  request: FastifyRequest,
  { fileField, maxBytes }: { fileField: string; maxBytes: number },
): Promise<UploadedForm> {
  if (!request.isMultipart()) throw new AppError(415, messages.unsupportedContentType);
  const form: UploadedForm = { fields: Object.create(null) as Record<string, string> };
  const parts = request.parts({ limits: { fileSize: maxBytes, files: 2, fields: 20, fieldSize: 64 * 1024 } });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') form.fields[part.fieldname] = part.value;
      } else if (part.fieldname === fileField && !form.file) {
        form.file = await part.toBuffer();
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    throw toUploadError(error);
  }
  if (form.file?.length === 0) delete form.file;
  return form;
}

/** Limits keep their status (413 for a file too large); a body that is not valid multipart is the client's fault. */
function toUploadError(error: unknown): unknown {
  const { code, statusCode } = error as { code?: string; statusCode?: number };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError(413, messages.imageTooLarge);
  if (error instanceof AppError || (statusCode && statusCode < 500)) return error;
  return new AppError(400, messages.malformedForm);
}
