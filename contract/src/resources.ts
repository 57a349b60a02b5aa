import { z } from 'zod';
import { answers } from './answers.ts';
import { ReplySchema as Reply } from './envelope.ts';
import { LectureParamsSchema } from './lectures.ts';

// Files attached to a lecture (PDF, ZIP, pictures, text): listed with download links for those who
// may watch it, attached and removed by an administrator.

export const ResourceParamsSchema = LectureParamsSchema.extend({ resourceId: z.uuid(answers.invalidId) });

export const ResourceSchema = z.object({
  _id: z.uuid(),
  /** The name it downloads as: the uploaded name made safe, ending as its content is. */
  name: z.string(),
  /** The type its content showed: one of RESOURCE_KINDS (media.ts). */
  mime: z.string(),
  bytes: z.number().int(),
  /** A download link made for this viewer, valid for a few hours; it answers with the file as an attachment. */
  url: z.string(),
});
export type Resource = z.infer<typeof ResourceSchema>;

export const ResourcesResponseSchema = Reply.extend({
  /** In the order they were attached. */
  resources: z.array(ResourceSchema),
  /** The largest file the server takes, and how many a lecture may have: the upload control says so before the upload. */
  maxBytes: z.number().int(),
  maxFiles: z.number().int(),
});
export const ResourceResponseSchema = Reply.extend({ resource: ResourceSchema });
