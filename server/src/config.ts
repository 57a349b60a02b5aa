import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const optionalUrl = z.url().optional();
const commaList = z
  .string()
  .default('')
  .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean));

/** Every environment variable the server reads, with its default (DESIGN §3). */
const EnvSchema = z
  .object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default('LMS <no-reply@lms.local>'),
  SESSION_SECRET: z.string().min(32).optional(),
  SESSION_DAYS: positiveInt.default(14),
  ALLOWED_ORIGINS: commaList,
  TRUST_PROXY: z.stringbool().default(false),
  IMAGE_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
  VIDEO_MAX_BYTES: positiveInt.default(2 * 1024 * 1024 * 1024),
  VIDEO_URL_HOURS: z.coerce.number().positive().default(6),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PUBLIC_URL: optionalUrl,
  LOGIN_MAX_PER_IP: positiveInt.default(30),
  LOGIN_MAX_PER_EMAIL: positiveInt.default(10),
  /** log2 of scrypt's N; 17 is OWASP's recommendation, tests use less. */
  PASSWORD_COST: z.coerce.number().int().min(10).max(20).default(17),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PAYMENTS_MODE: z.enum(['sandbox', 'razorpay']).default('sandbox'),
  RAZORPAY_BASE_URL: z.url().default('https://api.razorpay.com/v1'),
  RAZORPAY_KEY_ID: z.string().regex(/^rzp_(test|live)_\w+$/, 'must look like rzp_test_… or rzp_live_…').optional(),
  RAZORPAY_KEY_SECRET: z.string().min(8).optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(8).optional(),
  RAZORPAY_PLAN_ID: z.string().regex(/^plan_\w+$/, 'must look like plan_…').optional(),
  /** Rupees; stored and charged in paise. */
  SUBSCRIPTION_PRICE: z.coerce.number().positive().multipleOf(0.01).default(99),
  REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).default(14),
  CONTACT_EMAIL: z.email().optional(),
  })
  .superRefine((env, problems) => {
    const require = (names: readonly (keyof typeof env)[], when: string) => {
      for (const name of names) if (!env[name]) problems.addIssue({ code: 'custom', path: [name], message: `required when ${when}` });
    };
    if (env.STORAGE === 's3') require(['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'], 'STORAGE=s3');
    if (env.PAYMENTS_MODE === 'razorpay') {
      require(['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'], 'PAYMENTS_MODE=razorpay');
    }
  });

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof EnvSchema>) {
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    /** Where people reach the app; used for links in mail, never taken from a request's Host header. */
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    /** Set explicitly, or generated once into DATA_DIR by `ensureSessionSecret`. */
    sessionSecret: env.SESSION_SECRET,
    sessionDays: env.SESSION_DAYS,
    /** Origins besides the app's own that may send state-changing requests (e.g. the Vite dev server). */
    allowedOrigins: env.ALLOWED_ORIGINS,
    /** Behind a load balancer: take the client's address and protocol from X-Forwarded-* headers. */
    trustProxy: env.TRUST_PROXY,
    imageMaxBytes: env.IMAGE_MAX_BYTES,
    videoMaxBytes: env.VIDEO_MAX_BYTES,
    /** How long a lecture's signed video URL stays valid. */
    videoUrlHours: env.VIDEO_URL_HOURS,
    storage:
      env.STORAGE === 's3'
        ? {
            kind: 's3' as const,
            endpoint: env.S3_ENDPOINT,
            bucket: env.S3_BUCKET!,
            region: env.S3_REGION,
            accessKeyId: env.S3_ACCESS_KEY_ID!,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
            /** Base URL of public objects (a CDN); by default the bucket's own URL. */
            publicUrl: env.S3_PUBLIC_URL,
          }
        : { kind: 'local' as const },
    loginMaxPerIp: env.LOGIN_MAX_PER_IP,
    loginMaxPerEmail: env.LOGIN_MAX_PER_EMAIL,
    passwordCost: env.PASSWORD_COST,
    payments: {
      mode: env.PAYMENTS_MODE,
      /** Razorpay's API; in sandbox mode the imitation in this server is used instead. */
      baseUrl: env.RAZORPAY_BASE_URL.replace(/\/$/, ''),
      /** In sandbox mode these may be left out: they are generated once into DATA_DIR. */
      keyId: env.RAZORPAY_KEY_ID,
      keySecret: env.RAZORPAY_KEY_SECRET,
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
      /** A plan made in Razorpay's dashboard; otherwise one is created for the price on first use. */
      planId: env.RAZORPAY_PLAN_ID,
      pricePaise: Math.round(env.SUBSCRIPTION_PRICE * 100),
      refundWindowDays: env.REFUND_WINDOW_DAYS,
    },
    /** Where contact messages are mailed; by default to every administrator. */
    contactEmail: env.CONTACT_EMAIL,
    logLevel: env.LOG_LEVEL,
  };
}

export class ConfigError extends Error {}

/** The only reader of process.env. Fails listing every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Treat empty variables as unset, as shells and .env files often leave them.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return toConfig(parsed.data);
}
