/**
 * The words of the administrator's leak trace and sharing-risk list. Not in the message catalogue
 * (contract/src/messages.ts), which ships in every page's first chunk: these load with the pages.
 * The server's answers (sessions ended, account suspended, refusals) are the catalogue's, shown by
 * the API client.
 */
export const protectionTexts = {
  traceTitle: 'Leak trace',
  traceIntro:
    'Found a course video shared somewhere it should not be? Type the code shown on it, or the part you can read (at least 4 characters), to see which account played it, when and from where.',
  traceHint: 'Case and dashes do not matter; O reads as 0, and I or L as 1.',
  code: 'Code',
  trace: 'Trace',
  tracing: 'Looking for the code…',
  failed: 'The trace could not be run.',
  results: 'Playbacks found',
  noPlayback: (code: string) => `No playback has a code with “${code}” in it.`,
  noPlaybackHint: 'Check the characters against the clip; a code has 8 of them, shown as two groups of four.',
  found: (playbacks: number, accounts: number) =>
    `${playbacks} ${playbacks === 1 ? 'playback' : 'playbacks'} of ${accounts} ${accounts === 1 ? 'account' : 'accounts'}, the newest first.`,
  mostShown: (limit: number) => `The newest ${limit} are shown: type more of the code to narrow them down.`,
  playbacksOf: (name: string) => `Playbacks of ${name}`,
  watermark: 'Code',
  lecture: 'Lecture',
  lectureIn: (lecture: string, course: string) => `${lecture} · ${course}`,
  lectureDeleted: 'A lecture since deleted',
  started: 'Started',
  lastSeen: 'Last seen',
  place: 'Place',
  device: 'Device',
  suspended: 'Suspended',
  administrator: 'Administrator',
  sessions: (count: number) => (count === 0 ? 'Signed in nowhere' : `Signed in on ${count} ${count === 1 ? 'device' : 'devices'}`),

  actionsFor: (name: string) => `Actions for ${name}`,
  endSessions: 'End sessions',
  suspend: 'Suspend account',
  restore: 'Restore account',
  confirmEndSessions: (name: string, email: string) =>
    `End every session of ${name} (${email})? Every device signed in to the account is signed out, and playback stops there.`,
  confirmSuspend: (name: string, email: string) => `Suspend ${name} (${email})? Every session ends and the account cannot sign in until you restore it.`,
  confirmRestore: (name: string, email: string) => `Restore ${name} (${email})? The account can sign in again.`,
  suspendTitle: (name: string) => `Suspend ${name}?`,
  restoreTitle: (name: string) => `Restore ${name}?`,
  reason: 'Reason',
  reasonHint: 'Mailed to the learner and kept in the activity log, e.g. “Sharing the account with others”.',
  cancel: 'Cancel',
  close: 'Close',

  riskTitle: 'Sharing risk',
  riskIntro: (windowHours: number, blocks: number, refusals: number) =>
    `Accounts seen from more than ${blocks} address blocks, or refused more than ${refusals} streams for playing on too many devices at once, in the last ${windowHours} hours.`,
  riskLoading: 'Loading the accounts at risk…',
  riskFailed: 'The sharing-risk list could not be loaded.',
  riskEmpty: (windowHours: number) => `Nothing looks shared in the last ${windowHours} hours.`,
  riskEmptyHint: 'An account shows up here when many networks use it, or when it keeps asking to play on more devices than it may.',
  riskList: 'Accounts that may be shared',
  addressBlocks: 'Address blocks',
  refusals: 'Refused streams',
  ofThreshold: (count: number, threshold: number) => `${count} (more than ${threshold})`,
  underThreshold: (count: number, threshold: number) => `${count} (limit ${threshold})`,
  thresholds: 'Change the thresholds',
  toTrace: 'Trace a leaked clip',
} as const;
