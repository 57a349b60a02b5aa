import { z } from 'zod';
import { answers } from './answers.ts';
import { ReplySchema as Reply } from './envelope.ts';
import { CAPTION_MAX_CUES, CUE_TEXT_MAX, CUE_MAX_SECONDS, CAPTION_MAX_START_SECONDS, LABEL_MAX } from './caption-limits.ts';
import { LectureParamsSchema } from './lectures.ts';

// A lecture's captions: WebVTT files (SRT is converted on upload), one per language, shown in the
// player, listed as a transcript beside it, and searched from the catalogue (decision 0032).

export {
  CAPTION_MAX_BYTES,
  CAPTION_MAX_CUES,
  CAPTIONS_PER_LECTURE,
  CUE_TEXT_MAX,
  CUE_MAX_SECONDS,
  CAPTION_MAX_START_SECONDS,
  LABEL_MAX,
} from './caption-limits.ts';

/**
 * A language as BCP 47 writes it ("en", "hi", "pt-BR", "zh-Hant"), canonicalised ("EN-us" is "en-US").
 * Checked by Intl, which knows the grammar; the length is bounded first.
 */
export function canonicalLanguage(tag: string): string | undefined {
  if (tag.length < 2 || tag.length > 35 || !/^[A-Za-z0-9-]+$/.test(tag)) return undefined;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical;
  } catch {
    return undefined;
  }
}

const language = z
  .string({ error: answers.captionLanguageMissing })
  .trim()
  .min(1, answers.captionLanguageMissing)
  .transform((tag, context) => {
    const canonical = canonicalLanguage(tag);
    if (!canonical) context.addIssue({ code: 'custom', message: answers.captionLanguageInvalid });
    return canonical ?? tag;
  });
const label = z
  .string({ error: answers.captionLabelMissing })
  .trim()
  .min(1, answers.captionLabelMissing)
  .max(LABEL_MAX, answers.captionLabelTooLong(LABEL_MAX));
/** A form's yes/no field as sent by a checkbox or FormData: 'true' or 'false'. */
const formBoolean = z.enum(['true', 'false'], { error: answers.captionDefaultInvalid }).transform((value) => value === 'true');

export const CaptionParamsSchema = LectureParamsSchema.extend({ captionId: z.uuid(answers.invalidId) });

/**
 * Add captions (multipart): the file as `captions`, with `language` and `label`; `default`
 * ('true'/'false') makes them the lecture's default. A lecture's first captions are its default.
 * A language the lecture already has is refused (409): replace that file instead.
 */
export const CaptionFormSchema = z.object({ language, label, default: formBoolean.optional() });
export type CaptionForm = z.input<typeof CaptionFormSchema>;

/** Replace a caption file (multipart): the new file as `captions`; `label` may change with it. */
export const CaptionReplaceFormSchema = z.object({ label: label.optional() });

/** Rename captions, or make them the lecture's default (only `true`: another language becomes default by being made so). */
export const CaptionUpdateSchema = z
  .object({ label: label.optional(), isDefault: z.literal(true, { error: answers.captionDefaultInvalid }).optional() })
  .refine((change) => change.label !== undefined || change.isDefault !== undefined, answers.captionChangeEmpty);
export type CaptionUpdate = z.input<typeof CaptionUpdateSchema>;

/** One cue as the cue editor sends it: seconds, to the millisecond; text as WebVTT cue text (its tags kept, anything else escaped). */
export const CueSchema = z.object({
  start: z.number({ error: answers.cueTimeInvalid }).min(0, answers.cueTimeInvalid).max(CAPTION_MAX_START_SECONDS, answers.cueTimeInvalid),
  end: z
    .number({ error: answers.cueTimeInvalid })
    .min(0, answers.cueTimeInvalid)
    .max(CAPTION_MAX_START_SECONDS + CUE_MAX_SECONDS, answers.cueTimeInvalid),
  text: z.string({ error: answers.cueTextMissing }).max(CUE_TEXT_MAX, answers.cueTextTooLong(CUE_TEXT_MAX)),
});
export type CueInput = z.infer<typeof CueSchema>;

/** The cue editor's save: every cue, in order. The same rules as an uploaded file; the first broken cue is named by its number. */
export const CaptionCuesSchema = z.object({
  cues: z.array(CueSchema, { error: answers.cuesMissing }).min(1, answers.cuesMissing).max(CAPTION_MAX_CUES, answers.captionTooManyCues(CAPTION_MAX_CUES)),
});
export type CaptionCues = z.infer<typeof CaptionCuesSchema>;

export const CaptionSchema = z.object({
  _id: z.uuid(),
  /** BCP 47, canonical: "en", "hi", "pt-BR". Unique within the lecture. */
  language: z.string(),
  /** What the player's menu and the transcript call it: "English", "हिन्दी", "Hinglish". */
  label: z.string(),
  isDefault: z.boolean(),
  cueCount: z.number().int(),
  /** Counts saves of the file (uploads, replacements, the cue editor's): 1 for the first. */
  version: z.number().int(),
  /**
   * The WebVTT file, at a link made for this viewer (as a lecture's video is: bound to their session,
   * valid for a few hours; a free preview's for anyone). For `<track>` and the transcript.
   */
  url: z.string(),
  updatedAt: z.string(),
});
export type Caption = z.infer<typeof CaptionSchema>;

export const CaptionsResponseSchema = Reply.extend({
  /** The default first, then by label. */
  captions: z.array(CaptionSchema),
  /** The largest file the server takes, and how many languages a lecture may have: the upload control says so before the upload. */
  maxBytes: z.number().int(),
  maxCaptions: z.number().int(),
});
export const CaptionResponseSchema = Reply.extend({ caption: CaptionSchema });

/** Search inside what is said: words or a phrase ("quoted"), as a search engine reads them. */
export const SEARCH_QUERY_MAX = 100;
export const CAPTION_MATCHES_MAX = 20;
export const CaptionSearchQuerySchema = z.object({
  q: z.string({ error: answers.searchTooShort }).trim().min(2, answers.searchTooShort).max(SEARCH_QUERY_MAX, answers.searchTooLong),
  limit: z.coerce
    .number({ error: answers.invalidPage })
    .int(answers.invalidPage)
    .min(1, answers.invalidPage)
    .max(CAPTION_MATCHES_MAX, answers.invalidPage)
    .default(10),
});
export type CaptionSearchQuery = z.input<typeof CaptionSearchQuerySchema>;

/** A piece of a matching cue's text: `hit` where the words searched for are. Plain text, never markup. */
export const MatchPartSchema = z.object({ text: z.string(), hit: z.boolean() });
export type MatchPart = z.infer<typeof MatchPartSchema>;

export const CaptionMatchSchema = z.object({
  course: z.object({ _id: z.uuid(), title: z.string() }),
  lecture: z.object({ _id: z.uuid(), title: z.string() }),
  /** The captions' language and label. */
  language: z.string(),
  label: z.string(),
  /** Where the cue starts, in whole seconds: the lecture opens there (`?t=`). */
  start: z.number().int(),
  parts: z.array(MatchPartSchema),
  /**
   * Whether the asker may watch the lecture: an administrator, an active subscriber, or anyone on
   * a free preview. Otherwise the result links to the course's page.
   */
  canWatch: z.boolean(),
});
export type CaptionMatch = z.infer<typeof CaptionMatchSchema>;

export const CaptionSearchResponseSchema = Reply.extend({
  /** Best first; one cue per lecture at most, the best of that lecture's. */
  matches: z.array(CaptionMatchSchema),
});
