/**
 * The words of the catalogue's search inside lectures (what is said in them, from their captions).
 * Not in the message catalogue (contract/src/messages.ts), which ships in every page's first chunk.
 */
export const lectureMatchesTexts = {
  heading: 'Said in lectures',
  intro: (search: string) => `Lectures whose captions mention “${search}”`,
  loading: 'Searching what the lectures say…',
  none: (search: string) => `No lecture mentions “${search}”.`,
  /** The link's name: where it goes, and from when. */
  openAt: (lecture: string, time: string) => `${lecture}, from ${time}`,
  playsFrom: 'Plays from here',
  /** A lecture the viewer may not watch opens its course's page, which says how to get it. */
  aboutCourse: 'Subscribe to watch: opens the course',
  searchFailed: 'The lectures could not be searched.',
} as const;
