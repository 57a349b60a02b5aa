/**
 * The words of playback leases on the lecture page. Not in the message catalogue
 * (contract/src/messages.ts), which ships in every page's first chunk: these load with the lecture page.
 */
export const playbackTexts = {
  starting: 'Starting playback…',
  startFailed: 'Playback could not start. Check your connection and try again.',
  tryAgain: 'Try again',
  playHere: 'Play here',
  refusedTitle: 'Playing on other devices',
  stopThere: 'Stop playback there',
  stopThereOn: (device: string) => `Stop playback on ${device}`,
  thisBrowser: 'This browser, another tab',
  watching: (title: string | null) => (title ? `Watching “${title}”` : 'Watching a lecture'),
  lastSeen: (ago: string) => `last seen ${ago}`,
  /** How long ago, as people say it: "just now", "2 min ago", "3 h ago". */
  ago: (seconds: number) => {
    if (seconds < 45) return 'just now';
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return `${minutes} min ago`;
    const hours = Math.round(minutes / 60);
    if (hours < 24) return `${hours} h ago`;
    const days = Math.round(hours / 24);
    return `${days} ${days === 1 ? 'day' : 'days'} ago`;
  },
};
