import { spawn } from 'node:child_process';
import os from 'node:os';

/**
 * ffmpeg and ffprobe, run as child processes: a transcode keeps every core busy for minutes,
 * and none of it may run on the event loop. The children run at a lower priority (nice 10),
 * so requests keep their turn on the CPU while a video is processed.
 */

const CHILD_PRIORITY = 10;
/** What is kept of a child's stderr for an error message. */
const STDERR_KEEP = 4096;

/** A child that exited with an error. */
export class ChildFailed extends Error {
  constructor(
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`exited with ${code}: ${lastLine(stderr)}`);
  }
}

export const lastLine = (text: string) => text.trim().split('\n').at(-1)?.trim().slice(0, 300) ?? '';

interface ChildOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Keep stdout as bytes (a frame), rather than text. */
  binary?: boolean;
  /** Called per line of stdout as it arrives, instead of keeping it. */
  onStdoutLine?: (line: string) => void;
}

/** Runs `binary` with `args` (no shell) at a lower priority; resolves with its output, rejects with ChildFailed on a non-zero exit. */
export function runChild(binary: string, args: string[], options: ChildOptions = {}): Promise<{ stdout: string; stdoutBytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal, timeout: options.timeoutMs, killSignal: 'SIGKILL' });
    if (child.pid) {
      try {
        os.setPriority(child.pid, CHILD_PRIORITY);
      } catch {
        // Not allowed here: it runs at the server's priority.
      }
    }
    const chunks: Buffer[] = [];
    let pending = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (!options.onStdoutLine) return void chunks.push(chunk);
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) options.onStdoutLine(line.trim());
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) {
        const bytes = Buffer.concat(chunks);
        return resolve({ stdout: options.binary ? '' : bytes.toString('utf8'), stdoutBytes: bytes });
      }
      if (options.signal?.aborted) return reject(options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted'));
      reject(signal ? new Error(`killed by ${signal}`) : new ChildFailed(code, stderr));
    });
  });
}
