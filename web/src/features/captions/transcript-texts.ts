/** The transcript panel's words (the lecture page, beside the player). */
export const transcriptTexts = {
  heading: 'Transcript',
  language: 'Transcript language',
  show: 'Show the transcript',
  hide: 'Hide the transcript',
  loading: 'Loading the transcript…',
  failed: 'The transcript could not be loaded.',
  empty: 'This transcript has no lines.',
  backToCurrent: 'Back to current',
};
