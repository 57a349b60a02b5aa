import type { SignedInSession } from '@lms/contract/protection';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** A past moment in words: "5 minutes ago", "yesterday", "3 weeks ago". */
function ago(iso: string, now: number): string {
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['minute', 60],
    ['hour', 3600],
    ['day', 86_400],
    ['week', 7 * 86_400],
    ['month', 30 * 86_400],
    ['year', 365 * 86_400],
  ];
  let unit: [Intl.RelativeTimeFormatUnit, number] = steps[0]!;
  for (const step of steps) if (seconds >= step[1]) unit = step;
  return relative.format(-Math.floor(seconds / unit[1]), unit[0]);
}

/** The server writes a session's last sight every few minutes: within them it is in use now. */
const ACTIVE_NOW_MS = 5 * 60_000;

/** The words of the profile's list of signed-in devices; they load with the profile. */
export const sessionsTexts = {
  title: 'Signed-in devices',
  intro: 'Browsers signed in to your account. Sign out any you do not recognise, then change your password.',
  loadFailed: 'Your signed-in devices could not be loaded.',
  retry: 'Try again',
  device: (session: Pick<SignedInSession, 'browser' | 'os'>) => `${session.browser} on ${session.os}`,
  deviceTypes: { desktop: 'Computer', mobile: 'Phone', tablet: 'Tablet' } satisfies Record<SignedInSession['deviceType'], string>,
  thisDevice: 'This device',
  signedIn: (date: string) => `Signed in ${date}`,
  active: (session: Pick<SignedInSession, 'lastSeenAt' | 'current'>, now = Date.now()) =>
    session.current || now - Date.parse(session.lastSeenAt) < ACTIVE_NOW_MS ? 'Active now' : `Active ${ago(session.lastSeenAt, now)}`,
  place: 'Network',
  signOut: 'Sign out',
  signOutLabel: (device: string) => `Sign out ${device}`,
  signOutOthers: 'Sign out everywhere else',
  onlyThis: 'Only this device is signed in.',
  confirmOneTitle: 'Sign out this device?',
  confirmOne: (device: string, place: string) => `${device} (${place}) will be signed out. Anything playing there stops. Whoever uses it has to sign in again.`,
  confirmOthersTitle: 'Sign out everywhere else?',
  confirmOthers: (count: number) =>
    `${count} other ${count === 1 ? 'device' : 'devices'} will be signed out, and anything playing there stops. This device stays signed in.`,
  cancel: 'Cancel',
  close: 'Close',
};
