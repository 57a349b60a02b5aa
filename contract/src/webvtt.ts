import { answers } from './answers.ts';
import { CAPTION_MAX_CUES, CAPTION_MAX_START_SECONDS, CUE_MAX_SECONDS, CUE_TEXT_MAX } from './caption-limits.ts';
import type { CueInput } from './captions.ts';

// WebVTT and SRT, read strictly and in one pass over the lines (no backtracking: each line is looked
// at a bounded number of times), and WebVTT written back. The server reads uploads with it; the web
// app reads the stored WebVTT for the transcript and the cue editor, and checks the editor's cues
// with the same rules before it saves them.

/** One cue: seconds from the start of the video, to the millisecond; `text` is WebVTT cue text, sanitised. */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

export type CaptionsRead = { ok: true; format: 'vtt' | 'srt'; cues: Cue[] } | { ok: false; message: string };

const problems = answers.captionProblems;
const broken = (line: number, problem: string): CaptionsRead => ({ ok: false, message: answers.captionBroken(answers.captionLine(line), problem) });

/** "WEBVTT", alone or followed by a space or a tab and anything. */
const isVttHeader = (line: string) => line.startsWith('WEBVTT') && (line.length === 6 || line[6] === ' ' || line[6] === '\t');
const isBlank = (line: string) => line.trim() === '';
const startsBlock = (line: string, word: string) =>
  line.startsWith(word) && (line.length === word.length || line[word.length] === ' ' || line[word.length] === '\t');
const isDigits = (line: string) => /^\d{1,9}$/.test(line.trim());

/** `[hh:]mm:ss.ttt` (or `,ttt` in SRT) as seconds; undefined when it is not one. Minutes and seconds under 60. */
export function parseTimestamp(text: string): number | undefined {
  const match = /^(?:(\d{1,3}):)?(\d{2}):(\d{2})[.,](\d{3})$/.exec(text);
  if (!match) return undefined;
  const [hours, minutes, seconds, millis] = [Number(match[1] ?? 0), Number(match[2]), Number(match[3]), Number(match[4])];
  if (minutes > 59 || seconds > 59) return undefined;
  return (hours * 3600_000 + minutes * 60_000 + seconds * 1000 + millis) / 1000;
}

/** Seconds as WebVTT writes them: `hh:mm:ss.ttt`. */
export function formatTimestamp(seconds: number): string {
  const total = Math.max(0, Math.round(seconds * 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const hours = Math.floor(total / 3600_000);
  const minutes = Math.floor(total / 60_000) % 60;
  const secs = Math.floor(total / 1000) % 60;
  return `${two(hours)}:${two(minutes)}:${two(secs)}.${String(total % 1000).padStart(3, '0')}`;
}

/** A timing line, `start --> end` and perhaps cue settings (dropped: the player places cues itself). */
function parseTiming(line: string): { start: number; end: number } | 'timing' | 'timestamp' {
  const arrow = line.indexOf('-->');
  if (arrow < 0) return 'timing';
  const start = line.slice(0, arrow).trim();
  const [end = ''] = line
    .slice(arrow + 3)
    .trim()
    .split(/[ \t]/, 1);
  if (!start || !end) return 'timing';
  const startSeconds = parseTimestamp(start);
  const endSeconds = parseTimestamp(end);
  if (startSeconds === undefined || endSeconds === undefined) return 'timestamp';
  return { start: startSeconds, end: endSeconds };
}

const KNOWN_ENTITY = /^&(?:amp|lt|gt|lrm|rlm|nbsp|#\d{1,7}|#x[0-9A-Fa-f]{1,6});/;
const ALLOWED_TAGS = new Set(['c', 'i', 'b', 'u', 'ruby', 'rt', 'v', 'lang']);
const TIMESTAMP_TAG = /^(?:\d{1,3}:)?\d{2}:\d{2}\.\d{3}$/;
const CLASS_NAME = /^[A-Za-z0-9_-]{1,32}$/;
/** The longest tag kept: anything longer is text that happens to hold a "<". */
const TAG_MAX = 128;

/** A tag's inside (between < and >) rebuilt from what WebVTT allows, or undefined to drop it. */
function cleanTag(inside: string): string | undefined {
  if (inside.startsWith('/')) {
    const name = inside.slice(1).trim();
    return ALLOWED_TAGS.has(name) ? `</${name}>` : undefined;
  }
  if (TIMESTAMP_TAG.test(inside)) return parseTimestamp(inside) === undefined ? undefined : `<${inside}>`;
  const space = inside.search(/[ \t]/);
  const head = space < 0 ? inside : inside.slice(0, space);
  const annotation = space < 0 ? '' : inside.slice(space + 1).trim();
  const [name = '', ...classes] = head.split('.');
  if (!ALLOWED_TAGS.has(name)) return undefined;
  const kept = classes.filter((name) => CLASS_NAME.test(name));
  // Only a voice and a language carry an annotation (the speaker, the language tag).
  const note = (name === 'v' || name === 'lang') && annotation ? ` ${escapeText(annotation)}` : '';
  return `<${[name, ...kept].join('.')}${note}>`;
}

const escapeText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Cue text as WebVTT allows it, and nothing more: its own tags (b, i, u, c, v, lang, ruby, rt and
 * timestamps) rebuilt from their names, classes and annotation; any other tag (script, font, span…)
 * dropped with its brackets, its text kept; a stray `<`, `>` or `&` escaped. Blank lines are taken
 * out (one would end the cue), and so are the ends of lines.
 */
export function sanitiseCueText(text: string): string {
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  return lines
    .map((line) => {
      let out = '';
      let at = 0;
      while (at < line.length) {
        const char = line[at]!;
        if (char === '&') {
          const entity = KNOWN_ENTITY.exec(line.slice(at, at + 12));
          out += entity ? entity[0] : '&amp;';
          at += entity ? entity[0].length : 1;
        } else if (char === '<') {
          const close = line.indexOf('>', at + 1);
          const next = line.indexOf('<', at + 1);
          if (close < 0 || close - at > TAG_MAX || (next >= 0 && next < close)) {
            out += '&lt;';
            at += 1;
            continue;
          }
          out += cleanTag(line.slice(at + 1, close)) ?? '';
          at = close + 1;
        } else {
          out += char === '>' ? '&gt;' : char;
          at += 1;
        }
      }
      return out;
    })
    .filter((line) => line.trim() !== '')
    .join('\n');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f' };

/** What a cue says, as plain text: tags taken out, entities read, lines joined by a space. For the transcript and search. */
export function cuePlainText(text: string): string {
  return text
    .replace(/<[^<>]{0,128}>/g, '')
    .replace(/&(amp|lt|gt|nbsp|lrm|rlm|#\d{1,7}|#x[0-9A-Fa-f]{1,6});/g, (_, name: string) => {
      if (!name.startsWith('#')) return ENTITIES[name]!;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
}

/** The rules every cue keeps, whatever it came from; the problem's text, or undefined. */
function problemOf(cue: Cue, previous: Cue | undefined): string | undefined {
  if (cue.start > CAPTION_MAX_START_SECONDS) return problems.tooLate;
  if (cue.end <= cue.start) return problems.endBeforeStart;
  if (previous && cue.start < previous.start) return problems.outOfOrder;
  if (cue.end - cue.start > CUE_MAX_SECONDS) return problems.tooLong;
  if (cue.text === '') return problems.noText;
  if (cue.text.length > CUE_TEXT_MAX) return problems.textTooLong;
  return undefined;
}

/**
 * Reads a caption file: WebVTT when it starts with "WEBVTT", SRT when it starts with a cue number or
 * a timing line. The first thing wrong is named with its line: a missing header, a broken timing
 * line, a cue ending before it starts or starting before the one above it, one shown for over ten
 * minutes, one with no text, too many cues. NOTE, STYLE and REGION blocks and cue settings are left
 * out; the cues' text is sanitised (sanitiseCueText).
 */
export function parseCaptions(file: string): CaptionsRead {
  const lines = (file.startsWith('\ufeff') ? file.slice(1) : file).split(/\r\n|\r|\n/);
  let at = 0;
  while (at < lines.length && isBlank(lines[at]!)) at++;
  if (at === lines.length) return { ok: false, message: answers.captionEmpty };
  const first = lines[at]!;
  let format: 'vtt' | 'srt';
  if (isVttHeader(first)) {
    format = 'vtt';
    // The header block: the WEBVTT line and any metadata lines, up to the first blank line.
    at++;
    while (at < lines.length && !isBlank(lines[at]!)) {
      if (lines[at]!.includes('-->')) return broken(at + 1, problems.noBlankLine);
      at++;
    }
  } else if (isDigits(first) || first.includes('-->')) {
    format = 'srt';
  } else if (first.startsWith('WEBVTT')) {
    return broken(at + 1, problems.header);
  } else {
    return { ok: false, message: answers.captionNotCaptions };
  }

  const cues: Cue[] = [];
  while (at < lines.length) {
    while (at < lines.length && isBlank(lines[at]!)) at++;
    if (at === lines.length) break;
    const blockStart = at;
    if (format === 'vtt' && (startsBlock(lines[at]!, 'NOTE') || startsBlock(lines[at]!, 'STYLE') || startsBlock(lines[at]!, 'REGION'))) {
      while (at < lines.length && !isBlank(lines[at]!)) at++;
      continue;
    }
    // An identifier (SRT's cue number, WebVTT's optional name) comes before the timing line.
    if (!lines[at]!.includes('-->')) {
      if (format === 'srt' && !isDigits(lines[at]!)) return broken(at + 1, problems.timing);
      at++;
      if (at === lines.length || isBlank(lines[at]!)) return broken(blockStart + 1, problems.timing);
    }
    const timingLine = at + 1;
    const timing = parseTiming(lines[at]!);
    if (typeof timing === 'string') return broken(timingLine, problems[timing]);
    at++;
    const textLines: string[] = [];
    while (at < lines.length && !isBlank(lines[at]!)) {
      if (lines[at]!.includes('-->')) return broken(at + 1, problems.noBlankLine);
      textLines.push(lines[at]!);
      at++;
    }
    const cue = { ...timing, text: sanitiseCueText(textLines.join('\n')) };
    const problem = problemOf(cue, cues.at(-1));
    if (problem) return broken(timingLine, problem);
    if (cues.length === CAPTION_MAX_CUES) return { ok: false, message: answers.captionTooManyCues(CAPTION_MAX_CUES) };
    cues.push(cue);
  }
  if (cues.length === 0) return { ok: false, message: answers.captionEmpty };
  return { ok: true, format, cues };
}

/** The cue editor's cues, by the same rules as a file's, each refusal naming the cue by its number (from 1). */
export function checkCues(input: readonly CueInput[]): CaptionsRead {
  if (input.length === 0) return { ok: false, message: answers.cuesMissing };
  if (input.length > CAPTION_MAX_CUES) return { ok: false, message: answers.captionTooManyCues(CAPTION_MAX_CUES) };
  const cues: Cue[] = [];
  for (const [index, raw] of input.entries()) {
    const cue = { start: Math.round(raw.start * 1000) / 1000, end: Math.round(raw.end * 1000) / 1000, text: sanitiseCueText(raw.text) };
    const problem = problemOf(cue, cues.at(-1));
    if (problem) return { ok: false, message: answers.captionBroken(answers.captionCue(index + 1), problem) };
    cues.push(cue);
  }
  return { ok: true, format: 'vtt', cues };
}

/** Cues as a WebVTT file, numbered from 1. */
export function toWebVtt(cues: readonly Cue[]): string {
  return `WEBVTT\n\n${cues.map((cue, index) => `${index + 1}\n${formatTimestamp(cue.start)} --> ${formatTimestamp(cue.end)}\n${cue.text}\n`).join('\n')}`;
}
