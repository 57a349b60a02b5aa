/**
 * The words of the learner's progress on the lecture page, the cards, the course page,
 * the home page and the profile. Not in the message catalogue (contract/src/messages.ts), which ships in
 * every page's first chunk: these load with the pages that show progress (`/` has a budget of 110 KB of JavaScript).
 */
export const progressTexts = {
  courseProgress: (done: number, total: number, percent: number) => `${done} of ${total} ${total === 1 ? 'lecture' : 'lectures'} · ${percent} %`,
  continueWatching: 'Continue watching',
  continueLecture: (title: string, clock: string) => `${title} · at ${clock}`,
  continueLectureStart: (title: string) => `Next: ${title}`,
  noCoursesInProgress: 'No course in progress yet. Pick a course and press play: we keep your place.',
  resumedAt: (clock: string) => `Resumed at ${clock}`,
  startOver: 'Start over',
  markDone: 'Mark as completed',
  markNotDone: 'Completed · Undo',
  completedLecture: 'Completed',
  /** Under a section's title in the player's list. */
  sectionDone: (done: number, total: number) => `${done} of ${total} done`,
  watchedUntil: (clock: string) => `Stopped at ${clock}`,
  nextLectureIn: (seconds: number) => `Next lecture in ${seconds} s`,
  upNext: 'Up next',
  playNextNow: 'Play now',
  cancelNext: 'Cancel',
  autoplayNext: 'Play the next lecture automatically',
} as const;
