/*
 * The limits of a lecture's captions, apart from the caption schemas: the WebVTT reader checks them,
 * and the page that shows a transcript loads it without the validation library.
 */

/** The largest caption file taken (a 10-hour lecture's captions are ~1 MB), how many cues, and how many languages a lecture may have. */
export const CAPTION_MAX_BYTES = 2 * 1024 * 1024;
export const CAPTION_MAX_CUES = 20_000;
export const CAPTIONS_PER_LECTURE = 20;
/** A cue's text, in characters: two lines of subtitles are ~80; a paragraph is the most a viewer can read in one. */
export const CUE_TEXT_MAX = 1000;
/** The longest a cue may be shown, and the latest it may start: past these a file is broken, not long. */
export const CUE_MAX_SECONDS = 10 * 60;
export const CAPTION_MAX_START_SECONDS = 100 * 3600;
export const LABEL_MAX = 40;
