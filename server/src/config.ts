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
  })
  .superRefine((env, problems) => {
    if (env.STORAGE !== 's3') return;
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!env[name]) problems.addIssue({ code: 'custom', path: [name], message: 'required when STORAGE=s3' });
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
