/*
 * The progress rules the web app applies itself, apart from the schemas: the pages that show
 * progress load these without the validation library (a visitor's first download has a budget).
 */

/** A save reports at most this much play time: the player saves every ~10 s, and on pause, seek and leave. */
export const MAX_WATCHED_PER_SAVE = 120;
/** A lecture counts as completed once the learner has reached this share of it (or its end). */
export const COMPLETION_SHARE = 0.9;
