import { formatTimestamp, parseTimestamp } from '@lms/contract/webvtt';

/** A time as the cue editor shows it: `mm:ss.ttt`, or `hh:mm:ss.ttt` from an hour on. */
export function cueClock(seconds: number): string {
  const full = formatTimestamp(seconds);
  return full.startsWith('00:') ? full.slice(3) : full;
}

/**
 * A time as the admin typed it: `mm:ss.ttt`, `hh:mm:ss.ttt` (a comma for the dot, as in SRT), or
 * plain seconds ("75.5"); undefined when it is none of them.
 */
export function readCueTime(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d{1,6}(?:\.\d{1,3})?$/.test(trimmed)) return Number(trimmed);
  return parseTimestamp(trimmed);
}
