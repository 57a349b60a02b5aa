import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs with no variables at all, on its defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: undefined, redisUrl: undefined, smtpUrl: undefined });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.payments.mode).toBe('sandbox');
  });

  it('points links where the server listens, or at localhost when it listens everywhere', () => {
    expect(loadConfig({ HOST: 'localhost', PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:3000');
    expect(loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://learn.example.com/' }).publicUrl).toBe('https://learn.example.com');
  });

  it('refuses to start in production without an explicit PAYMENTS_MODE, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PAYMENTS_MODE: required when NODE_ENV=production/);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_MODE: 'sandbox' }).payments.mode).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'development' }).payments.mode).toBe('sandbox');
  });

  it('checks the seller of the invoices: a real GSTIN in the state given, named with real payments', () => {
    const razorpay = { PAYMENTS_MODE: 'razorpay', RAZORPAY_KEY_ID: 'rzp_live_Abc', RAZORPAY_KEY_SECRET: 'secret-0123', RAZORPAY_WEBHOOK_SECRET: 'secret-0123' };
    expect(() => loadConfig(razorpay)).toThrow(/SELLER_NAME: required when PAYMENTS_MODE=razorpay/);
    expect(loadConfig({ ...razorpay, SELLER_NAME: 'Asha Courses', SELLER_ADDRESS: 'Baner, Pune 411045', SELLER_STATE: '27' }).seller).toEqual({
      name: 'Asha Courses',
      address: 'Baner, Pune 411045',
      stateCode: '27',
      gstin: null,
      sac: '999293',
      gstRate: 18,
      fromEnvironment: { legalName: true, address: true, gstin: false, stateCode: true },
    });
    // Whatever the environment leaves out, the dashboard's settings may fill in (features/settings).
    expect(loadConfig({}).seller).toMatchObject({
      name: 'LMS Learning',
      stateCode: '29',
      gstin: null,
      fromEnvironment: { legalName: false, address: false, gstin: false, stateCode: false },
    });
    // A GSTIN alone names its state.
    expect(loadConfig({ SELLER_GSTIN: '27AAPFU0939F1ZV' }).seller).toMatchObject({
      gstin: '27AAPFU0939F1ZV',
      stateCode: '27',
      fromEnvironment: { gstin: true, stateCode: false },
    });
    expect(() => loadConfig({ SELLER_GSTIN: '27AAPFU0939F1ZW', SELLER_STATE: '27' })).toThrow(/SELLER_GSTIN: must be a valid 15-character GSTIN/);
    expect(() => loadConfig({ SELLER_GSTIN: '27AAPFU0939F1ZV', SELLER_STATE: '29' })).toThrow(/SELLER_STATE: must be 27, the state of SELLER_GSTIN/);
    expect(() => loadConfig({ SELLER_STATE: '99' })).toThrow(/SELLER_STATE: must be a GST state code/);
    expect(loadConfig({ SELLER_GSTIN: '27aapfu0939f1zv', SELLER_STATE: '27' }).seller.gstin).toBe('27AAPFU0939F1ZV');
  });

  it('adds the demo courses to an empty site unless DEMO_CONTENT=off', () => {
    expect(loadConfig({}).demoContent).toBe(true);
    expect(loadConfig({ DEMO_CONTENT: 'on' }).demoContent).toBe(true);
    expect(loadConfig({ DEMO_CONTENT: 'off' }).demoContent).toBe(false);
    expect(() => loadConfig({ DEMO_CONTENT: 'no' })).toThrow(/DEMO_CONTENT/);
  });

  it('charges the price as it is, or with GST added when a registered seller says prices exclude it', () => {
    expect(loadConfig({ SUBSCRIPTION_PRICE: '100', PRICES_INCLUDE_TAX: 'no' }).payments.pricePaise).toBe(10000);
    expect(loadConfig({ SUBSCRIPTION_PRICE: '100', PRICES_INCLUDE_TAX: 'no', SELLER_GSTIN: '27AAPFU0939F1ZV', SELLER_STATE: '27' }).payments.pricePaise).toBe(
      11800,
    );
    expect(loadConfig({ SUBSCRIPTION_PRICE: '100', SELLER_GSTIN: '27AAPFU0939F1ZV', SELLER_STATE: '27' }).payments.pricePaise).toBe(10000);
  });

  it('takes TRUST_PROXY as a hop count or a list of proxies, and refuses "true"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.7', 'loopback']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: true would trust any X-Forwarded-For/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY: a hop count, or proxy addresses/);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
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
    const config = loadConfig({ DATABASE_URL: '', ALLOWED_ORIGINS: 'http://localhost:5173, http://127.0.0.1:5173', TRUST_PROXY: '' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.allowedOrigins).toEqual(['http://localhost:5173', 'http://127.0.0.1:5173']);
    expect(config.trustProxy).toBe(false);
  });

  it('gives requests 30 s to finish at a stop, and keeps metrics off the public port unless a token guards them', () => {
    expect(loadConfig({})).toMatchObject({ shutdownGraceSeconds: 30, metrics: { port: undefined, token: undefined } });
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '5', METRICS_PORT: '9464' })).toMatchObject({ shutdownGraceSeconds: 5, metrics: { port: 9464 } });
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(/METRICS_PORT: must differ from PORT/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ SHUTDOWN_GRACE_SECONDS: '0' })).toThrow(/SHUTDOWN_GRACE_SECONDS/);
  });
});
