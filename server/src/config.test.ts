import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs with no variables at all, on the defaults of DESIGN §3', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: undefined, redisUrl: undefined, smtpUrl: undefined });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('lists every bad variable at once', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', SESSION_SECRET: 'short', LOG_LEVEL: 'loud' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const name of ['PORT', 'DATABASE_URL', 'SESSION_SECRET', 'LOG_LEVEL']) expect(message).toContain(name);
  });

  it('treats empty variables as unset and reads lists and flags', () => {
    const config = loadConfig({ DATABASE_URL: '', ALLOWED_ORIGINS: 'http://localhost:5173, http://127.0.0.1:5173', TRUST_PROXY: 'true' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.allowedOrigins).toEqual(['http://localhost:5173', 'http://127.0.0.1:5173']);
    expect(config.trustProxy).toBe(true);
  });
});
