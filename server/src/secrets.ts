import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';

/** The configuration with every secret present, as the app runs with it. */
export type RuntimeConfig = Config & {
  sessionSecret: string;
  payments: Config['payments'] & { keyId: string; keySecret: string; webhookSecret: string };
};

const base62 = (length: number) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % 62]).join('');
};

/**
 * Fills in the secrets the environment left out, generating each once and keeping
 * it in DATA_DIR (mode 600) so it survives restarts: the session secret (signs media
 * URLs) and, in sandbox mode, the sandbox's Razorpay-style keys.
 */
export function withSecrets(config: Config): RuntimeConfig {
  const kept = (name: string, make: () => string) => {
    const file = path.join(config.dataDir, name);
    fs.mkdirSync(config.dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, make(), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return fs.readFileSync(file, 'utf8').trim();
  };
  const sessionSecret = config.sessionSecret ?? kept('session-secret', () => randomBytes(32).toString('base64url'));
  const { payments } = config;
  // loadConfig insists on the three keys in razorpay mode; only the sandbox generates its own.
  const sandbox = (name: string, make: () => string, value?: string) => value ?? kept(`sandbox-${name}`, make);
  return {
    ...config,
    sessionSecret,
    payments: {
      ...payments,
      keyId: sandbox('key-id', () => `rzp_test_${base62(14)}`, payments.keyId),
      keySecret: sandbox('key-secret', () => base62(24), payments.keySecret),
      webhookSecret: sandbox('webhook-secret', () => base62(24), payments.webhookSecret),
    },
  };
}
