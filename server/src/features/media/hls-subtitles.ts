import type { Readable } from 'node:stream';
import { hlsFileKey, isMediaKey, type MediaStorage } from './storage.ts';
import { readHead } from './upload.ts';

/**
 * A lecture's captions as subtitle renditions of its HLS ladder, so that Safari's native player
 * and hls.js show them (and in fullscreen): the master playlist gets a SUBTITLES group with one
 * rendition per language, each a one-segment VOD playlist whose segment is the caption file. The
 * ladder's files are never rewritten in storage; these are made as they are served.
 */

/** A language of captions offered with a ladder: `version` names its current file. */
export interface SubtitleTrack {
  language: string;
  label: string;
  version: number;
}

export const SUBTITLES_GROUP = 'subs';
/**
 * Where ffmpeg's MPEG-TS output starts its clock: 1.4 s at 90 kHz. Used when the ladder's first
 * segment cannot be read; a WebVTT file without the right map is shown shifted by that much.
 */
export const DEFAULT_FIRST_PTS = 126_000;
/** How much of the first segment is read for its first video timestamp: the PAT, the PMT and the first video packet come in the first few packets. */
const SEGMENT_HEAD_BYTES = 32 * 1024;
const TS_PACKET = 188;

/** The playlist name of a language's subtitles, and of its file, beside the master playlist. */
export const subtitlePlaylistName = (language: string) => `captions-${language}.m3u8`;
export const subtitleFileName = (language: string, version: number) => `captions-${language}-v${version}.vtt`;

/** An attribute value inside double quotes: no quote, and no line break or other control character, may reach the playlist. */
const quoted = (value: string) => `"${value.replace(/["\p{Cc}]/gu, (found) => (found === '"' ? "'" : ' '))}"`;

/**
 * The master playlist with a SUBTITLES group, one EXT-X-MEDIA per language (none the default: the
 * learner turns captions on), and every variant stream pointing at the group. Unchanged without tracks.
 */
export function withSubtitles(master: string, tracks: readonly SubtitleTrack[]): string {
  if (tracks.length === 0) return master;
  const media = tracks.map(
    (track) =>
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="${SUBTITLES_GROUP}",NAME=${quoted(track.label)},LANGUAGE=${quoted(track.language)},DEFAULT=NO,AUTOSELECT=YES,URI=${quoted(subtitlePlaylistName(track.language))}`,
  );
  const lines = master.split(/\r?\n/);
  const out: string[] = [];
  let added = false;
  for (const line of lines) {
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      if (!added) out.push(...media);
      added = true;
      out.push(`${line},SUBTITLES="${SUBTITLES_GROUP}"`);
    } else {
      out.push(line);
    }
  }
  return out.join('\n');
}

/** A language's subtitle playlist: one segment, the whole caption file, as long as the video. */
export function subtitlePlaylist(track: Pick<SubtitleTrack, 'language' | 'version'>, durationSeconds: number): string {
  const seconds = Math.max(1, durationSeconds);
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.ceil(seconds)}`,
    '#EXT-X-PLAYLIST-TYPE:VOD',
    `#EXTINF:${seconds.toFixed(3)},`,
    subtitleFileName(track.language, track.version),
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');
}

/**
 * The caption file with the map HLS players need (RFC 8216, 3.5): cue time 0 is the video's first
 * timestamp (`firstPts`, 90 kHz), not 0, in an MPEG-TS ladder. Added after the WEBVTT line, in the header.
 */
export function withTimestampMap(webVtt: string, firstPts: number): string {
  const end = webVtt.indexOf('\n');
  const map = `X-TIMESTAMP-MAP=MPEGTS:${firstPts},LOCAL:00:00:00.000`;
  return end === -1 ? `${webVtt}\n${map}\n` : `${webVtt.slice(0, end)}\n${map}${webVtt.slice(end)}`;
}

/**
 * The presentation timestamp (90 kHz) of the first video PES packet in the MPEG-TS bytes, read
 * packet by packet (188 bytes each, linear, nothing past `bytes`); undefined when none is there.
 * Video is recognised by its PES stream id (0xE0–0xEF), as ffmpeg writes it.
 */
export function firstVideoPts(bytes: Buffer): number | undefined {
  for (let at = 0; at + TS_PACKET <= bytes.length; at += TS_PACKET) {
    if (bytes[at] !== 0x47) return undefined;
    const startsUnit = (bytes[at + 1]! & 0x40) !== 0;
    const adaptation = (bytes[at + 3]! >> 4) & 0x03;
    if (!startsUnit || adaptation === 0 || adaptation === 2) continue;
    const payload = at + 4 + (adaptation === 3 ? 1 + bytes[at + 4]! : 0);
    if (payload + 14 > at + TS_PACKET) continue;
    if (bytes[payload] !== 0 || bytes[payload + 1] !== 0 || bytes[payload + 2] !== 1) continue;
    const streamId = bytes[payload + 3]!;
    if (streamId < 0xe0 || streamId > 0xef) continue;
    if ((bytes[payload + 7]! & 0x80) === 0) return undefined;
    const p = payload + 9;
    return ((bytes[p]! >> 1) & 0x07) * 2 ** 30 + (bytes[p + 1]! << 22) + ((bytes[p + 2]! >> 1) << 15) + (bytes[p + 3]! << 7) + (bytes[p + 4]! >> 1);
  }
  return undefined;
}

/** The URI of the variant with the lowest BANDWIDTH in a master playlist. */
export function lowestVariant(master: string): string | undefined {
  const lines = master.split(/\r?\n/);
  let best: { bandwidth: number; uri: string } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (!line.startsWith('#EXT-X-STREAM-INF:')) continue;
    const bandwidth = Number(/[:,]BANDWIDTH=(\d{1,12})/.exec(line)?.[1] ?? Number.POSITIVE_INFINITY);
    const uri = lines.slice(index + 1).find((next) => next.trim() !== '' && !next.startsWith('#'));
    if (uri && (!best || bandwidth < best.bandwidth)) best = { bandwidth, uri: uri.trim() };
  }
  return best?.uri;
}

/** A media playlist's first segment and its total length in seconds. */
function readMediaPlaylist(playlist: string): { firstSegment?: string; seconds: number } {
  let seconds = 0;
  let firstSegment: string | undefined;
  for (const line of playlist.split(/\r?\n/)) {
    const extinf = /^#EXTINF:(\d{1,7}(?:\.\d{1,9})?)/.exec(line);
    if (extinf) seconds += Number(extinf[1]);
    else if (!firstSegment && line.trim() !== '' && !line.startsWith('#')) firstSegment = line.trim();
  }
  return { firstSegment, seconds };
}

export interface LadderTiming {
  /** The first video timestamp of the lowest rendition's first segment (90 kHz). */
  firstPts: number;
  /** The lowest rendition's length by its playlist; undefined when it could not be read. */
  seconds?: number;
}

/** Ladders never change once stored (a new video is a new folder): what was read of one is kept, for this many folders. */
const TIMING_CACHE_SIZE = 1000;
const timings = new Map<string, LadderTiming>();

/**
 * The timing of the ladder in `folderKey`: its master playlist, the lowest rendition's playlist and
 * the first few KB of its first segment are read once, then remembered. What cannot be read gives
 * DEFAULT_FIRST_PTS, and is tried again next time.
 */
export async function ladderTiming(media: MediaStorage, folderKey: string, master: string): Promise<LadderTiming> {
  const known = timings.get(folderKey);
  if (known) return known;
  const fallback: LadderTiming = { firstPts: DEFAULT_FIRST_PTS };
  const variant = lowestVariant(master);
  const variantKey = variant && hlsFileKey(folderKey, variant);
  if (!variantKey || !isMediaKey(variantKey)) return fallback;
  try {
    const playlist = readMediaPlaylist((await readHead(media.read(variantKey), 1024 * 1024)).toString('utf8'));
    const segmentKey = playlist.firstSegment && hlsFileKey(folderKey, playlist.firstSegment);
    if (!segmentKey || !isMediaKey(segmentKey)) return { ...fallback, seconds: playlist.seconds };
    const stream: Readable = media.read(segmentKey);
    const head = await readHead(stream, SEGMENT_HEAD_BYTES).finally(() => stream.destroy());
    const firstPts = firstVideoPts(head);
    const timing = { firstPts: firstPts ?? DEFAULT_FIRST_PTS, seconds: playlist.seconds };
    if (firstPts !== undefined) {
      if (timings.size >= TIMING_CACHE_SIZE) timings.delete(timings.keys().next().value!);
      timings.set(folderKey, timing);
    }
    return timing;
  } catch {
    return fallback;
  }
}
