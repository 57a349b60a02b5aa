import { buffer } from 'node:stream/consumers';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { CAPTION_MAX_BYTES, CAPTIONS_PER_LECTURE, CaptionFormSchema, CaptionReplaceFormSchema } from '@lms/contract/captions';
import { AppError } from '../../errors.ts';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { parseInput } from '../../validation.ts';
import { currentUser, loadUser } from '../auth/guards.ts';
import { readForm } from '../media/upload.ts';
import { sizeLimitText } from '../resources/resources.service.ts';
import {
  addCaptions,
  checkRoomForCaptions,
  deleteCaptions,
  listCaptions,
  readCaptionFile,
  replaceCaptions,
  saveCaptionCues,
  updateCaptions,
} from './captions.service.ts';

/** Each save reads up to CAPTION_MAX_BYTES, writes a file and re-indexes up to 20,000 cues. */
const captionWrites = rateLimited({ limiter: 'captionUploadsPerAccount', key: byAccount });

/** The caption file of a multipart form (field `captions`), held in memory (it is at most CAPTION_MAX_BYTES), and its text fields. */
async function readCaptionForm(request: FastifyRequest) {
  const form = await readForm(request, {
    fileField: 'captions',
    maxBytes: CAPTION_MAX_BYTES,
    tooLargeMessage: answers.captionTooLarge(sizeLimitText(CAPTION_MAX_BYTES)),
    receive: buffer,
  });
  if (!form.file) throw new AppError(400, answers.captionMissing);
  return { bytes: form.file, fields: form.fields };
}

/** A lecture's captions: listed for whoever may watch it (a free preview's for anyone), managed by an administrator. */
export const captionRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.captions.list, {
    handler: async (request) => ({
      success: true,
      message: answers.captionsFetched,
      // Open to visitors: a free preview's captions are for anyone its video plays for.
      captions: await listCaptions(ctx, { ...request.params, viewer: await loadUser(request) }),
      maxBytes: CAPTION_MAX_BYTES,
      maxCaptions: CAPTIONS_PER_LECTURE,
    }),
  });

  route(app, api.captions.add, {
    rateLimit: captionWrites,
    handler: async (request) => {
      // An unknown lecture, or one with every place taken, is refused before its file is read.
      await checkRoomForCaptions(ctx, request.params);
      const { bytes, fields } = await readCaptionForm(request);
      const form = parseInput(CaptionFormSchema, fields);
      const cues = readCaptionFile(bytes);
      const caption = await addCaptions(ctx, {
        ...request.params,
        cues,
        language: form.language,
        label: form.label,
        isDefault: form.default ?? false,
        viewer: currentUser(request),
      });
      return { success: true, message: answers.captionAdded, caption };
    },
  });

  route(app, api.captions.replace, {
    rateLimit: captionWrites,
    handler: async (request) => {
      const { bytes, fields } = await readCaptionForm(request);
      const { label } = parseInput(CaptionReplaceFormSchema, fields);
      const cues = readCaptionFile(bytes);
      const caption = await replaceCaptions(ctx, { ...request.params, cues, label, viewer: currentUser(request) });
      return { success: true, message: answers.captionReplaced, caption };
    },
  });

  route(app, api.captions.update, {
    handler: async (request) => {
      const caption = await updateCaptions(ctx, { ...request.params, ...request.body, viewer: currentUser(request) });
      return { success: true, message: answers.captionUpdated, caption };
    },
  });

  route(app, api.captions.saveCues, {
    rateLimit: captionWrites,
    handler: async (request) => {
      const caption = await saveCaptionCues(ctx, { ...request.params, cues: request.body.cues, viewer: currentUser(request) });
      return { success: true, message: answers.captionUpdated, caption };
    },
  });

  route(app, api.captions.delete, {
    handler: async (request) => {
      await deleteCaptions(ctx, request.params);
      return { success: true, message: answers.captionDeleted };
    },
  });
};
