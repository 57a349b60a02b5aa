import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';

/**
 * SESSION_SECRET when set; otherwise one generated on the first start and kept
 * in DATA_DIR (mode 600), so signed media URLs survive restarts.
 */
export function withSessionSecret(config: Config): Config & { sessionSecret: string } {
  if (config.sessionSecret) return { ...config, sessionSecret: config.sessionSecret };
  const file = path.join(config.dataDir, 'session-secret');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { ...config, sessionSecret: fs.readFileSync(file, 'utf8').trim() };
}
