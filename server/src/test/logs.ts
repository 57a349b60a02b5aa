import { Writable } from 'node:stream';

/** A log stream for buildApp that keeps every line, to check what the app logged. */
export function recordLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  /** The lines as pino wrote them: one JSON object each. */
  const entries = (): Record<string, unknown>[] => lines.map((line) => JSON.parse(line));
  return { lines, stream, entries };
}
