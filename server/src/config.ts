import path from 'node:path';
import { compile as compileProxyList } from '@fastify/proxy-addr';
import { z } from 'zod';
import { isStateCode, isValidGstin, type StateCode } from '@lms/contract/billing';
import { IMAGE_MAX_BYTES, RESOURCE_MAX_BYTES } from '@lms/contract/media';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const optionalUrl = z.url().optional();
const commaList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** Every environment variable the server reads, with its default: with none set, the server runs as a newcomer's `npm start`. */
/** Karnataka: the seller's state when neither the environment nor the dashboard names one. */
const DEFAULT_SELLER_STATE = '29';

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
    TRUST_PROXY: z.string().optional().transform(toTrustProxy),
    IMAGE_MAX_BYTES: positiveInt.default(IMAGE_MAX_BYTES),
    VIDEO_MAX_BYTES: positiveInt.default(2 * 1024 * 1024 * 1024),
    RESOURCE_MAX_BYTES: positiveInt.default(RESOURCE_MAX_BYTES),
    VIDEO_URL_HOURS: z.coerce.number().positive().default(6),
    /** The video pipeline (decision 0014): off leaves every upload playing as it was uploaded. */
    VIDEO_PROCESSING: z.enum(['on', 'off']).default('on'),
    /** on: the first start of an empty site adds demo courses (and the demo testimonials); off: a site starts empty. */
    DEMO_CONTENT: z.enum(['on', 'off']).default('on'),
    FFMPEG_PATH: z.string().min(1).optional(),
    FFPROBE_PATH: z.string().min(1).optional(),
    /** Videos one instance processes at once; each transcode keeps every core busy. */
    VIDEO_JOBS_PER_INSTANCE: positiveInt.default(1),
    /** A processing run silent this long died with its process; it is started again. */
    VIDEO_STALL_SECONDS: positiveInt.default(60),
    STORAGE: z.enum(['local', 's3']).default('local'),
    S3_ENDPOINT: optionalUrl,
    S3_BUCKET: z.string().min(3).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_PUBLIC_URL: optionalUrl,
    LOGIN_MAX_PER_IP: positiveInt.default(100),
    LOGIN_MAX_PER_EMAIL: positiveInt.default(10),
    LOGIN_MAX_PER_ACCOUNT: positiveInt.default(100),
    SIGNUP_MAX_PER_IP: positiveInt.default(60),
    /** log2 of scrypt's N; 17 is OWASP's recommendation, tests use less. */
    PASSWORD_COST: z.coerce.number().int().min(10).max(20).default(17),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Left unset, the sandbox, except under NODE_ENV=production, where it must be chosen (below). */
    PAYMENTS_MODE: z.enum(['sandbox', 'razorpay']).optional(),
    RAZORPAY_BASE_URL: z.url().default('https://api.razorpay.com/v1'),
    RAZORPAY_KEY_ID: z
      .string()
      .regex(/^rzp_(test|live)_\w+$/, 'must look like rzp_test_… or rzp_live_…')
      .optional(),
    RAZORPAY_KEY_SECRET: z.string().min(8).optional(),
    RAZORPAY_WEBHOOK_SECRET: z.string().min(8).optional(),
    RAZORPAY_PLAN_ID: z
      .string()
      .regex(/^plan_\w+$/, 'must look like plan_…')
      .optional(),
    /** Rupees; stored and charged in paise. */
    SUBSCRIPTION_PRICE: z.coerce.number().positive().multipleOf(0.01).default(99),
    REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).default(14),
    /** Devices an account may play on at once; set here, it wins over the dashboard's setting. */
    MAX_STREAMS: z.coerce.number().int().min(1).max(10).optional(),
    /** Signed-in devices an account may keep (0: no limit); set here, it wins over the dashboard's setting. */
    MAX_DEVICES: z.coerce.number().int().min(0).max(20).optional(),
    CONTACT_EMAIL: z.email().optional(),
    /** The seller on invoices and receipts (decision 0016): required with real payments (PAYMENTS_MODE=razorpay). */
    SELLER_NAME: z.string().trim().min(2).max(100).optional(),
    /** One line, as it goes on the document: street, city, PIN. */
    SELLER_ADDRESS: z.string().trim().min(5).max(300).optional(),
    /** The seller's GST state code (e.g. 29 for Karnataka): the place of supply when the buyer's is unknown. */
    SELLER_STATE: z.string().refine(isStateCode, 'must be a GST state code, e.g. 29').optional(),
    /** Registered for GST: documents are Tax Invoices with CGST + SGST or IGST. Without it, Receipts with no tax. */
    SELLER_GSTIN: z.string().trim().toUpperCase().refine(isValidGstin, 'must be a valid 15-character GSTIN (shape and check character)').optional(),
    /** SAC 999293, "Commercial training and coaching services", where GST classifies online courses. */
    SELLER_SAC: z
      .string()
      .regex(/^[0-9]{4,8}$/, 'must be 4 to 8 digits')
      .default('999293'),
    /** Percent: CGST and SGST are half each, or IGST all of it. */
    GST_RATE: z.coerce.number().min(0).max(28).multipleOf(0.01).default(18),
    /** yes: SUBSCRIPTION_PRICE includes GST. no: GST is added to it (with a GSTIN only). */
    PRICES_INCLUDE_TAX: z.enum(['yes', 'no']).default('yes'),
    /** For `npm run bench`: where to write the event loop's delay each second. */
    EVENT_LOOP_STATS_FILE: z.string().min(1).optional(),
    /** How long requests in flight may take to finish once a stop is asked for (SIGTERM, Ctrl-C). */
    SHUTDOWN_GRACE_SECONDS: positiveInt.default(30),
    /** Prometheus metrics on a port of their own, never on PORT: on 127.0.0.1, or on HOST with METRICS_TOKEN (metrics.ts). */
    METRICS_PORT: port.optional(),
    /** Prometheus metrics at /metrics on PORT, only to `Authorization: Bearer <token>` (metrics.ts). */
    METRICS_TOKEN: z.string().min(16).optional(),
  })
  .superRefine((env, problems) => {
    const require = (names: readonly (keyof typeof env)[], when: string) => {
      for (const name of names) if (!env[name]) problems.addIssue({ code: 'custom', path: [name], message: `required when ${when}` });
    };
    // A production server that forgot the variable must not take test cards as payment.
    if (env.NODE_ENV === 'production' && !env.PAYMENTS_MODE) {
      problems.addIssue({ code: 'custom', path: ['PAYMENTS_MODE'], message: 'required when NODE_ENV=production: razorpay, or sandbox for a test deployment' });
    }
    // Left out, SELLER_STATE is the GSTIN's own state.
    if (env.SELLER_GSTIN && env.SELLER_STATE && env.SELLER_GSTIN.slice(0, 2) !== env.SELLER_STATE) {
      problems.addIssue({ code: 'custom', path: ['SELLER_STATE'], message: `must be ${env.SELLER_GSTIN.slice(0, 2)}, the state of SELLER_GSTIN` });
    }
    if (env.METRICS_PORT && env.METRICS_PORT === env.PORT) {
      problems.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT: metrics are never served on the public port' });
    }
    if (env.STORAGE === 's3') require(['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'], 'STORAGE=s3');
    if (env.PAYMENTS_MODE === 'razorpay') {
      require(['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'], 'PAYMENTS_MODE=razorpay');
      // Real money gets real invoices: they must name the real seller, not the sandbox's.
      require(['SELLER_NAME', 'SELLER_ADDRESS'], 'PAYMENTS_MODE=razorpay (invoices name the seller)');
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
    publicUrl: (env.PUBLIC_URL ?? defaultPublicUrl(env.HOST, env.PORT)).replace(/\/$/, ''),
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
    /**
     * Behind a load balancer: how many proxies (a hop count), or which ones (addresses and CIDRs),
     * may state the client's address and protocol in X-Forwarded-*; false to believe none.
     */
    trustProxy: env.TRUST_PROXY,
    imageMaxBytes: env.IMAGE_MAX_BYTES,
    videoMaxBytes: env.VIDEO_MAX_BYTES,
    /** The largest file attached to a lecture (PDF, ZIP, picture, text). */
    resourceMaxBytes: env.RESOURCE_MAX_BYTES,
    /** How long a lecture's signed video URL stays valid. */
    videoUrlHours: env.VIDEO_URL_HOURS,
    video: {
      processing: env.VIDEO_PROCESSING === 'on',
      /** Explicit tools; otherwise ffmpeg and ffprobe on PATH, then the ones shipped in npm packages. */
      ffmpegPath: env.FFMPEG_PATH,
      ffprobePath: env.FFPROBE_PATH,
      jobsPerInstance: env.VIDEO_JOBS_PER_INSTANCE,
      stallSeconds: env.VIDEO_STALL_SECONDS,
    },
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
    /** Login attempts from one address (an IPv6 /64) per 15 minutes: a classroom behind one NAT signs in (decision 0021). */
    loginMaxPerIp: env.LOGIN_MAX_PER_IP,
    /** Failed logins for one email from one address per 15 minutes: the lock an attacker elsewhere cannot set off. */
    loginMaxPerEmail: env.LOGIN_MAX_PER_EMAIL,
    /** Failed logins for one email from all addresses together per 15 minutes; past it, unknown browsers get a mailed link. */
    loginMaxPerAccount: env.LOGIN_MAX_PER_ACCOUNT,
    /** Sign-ups from one address (an IPv6 /64) per 15 minutes: a class of 40 behind one NAT signs up (decision 0021). */
    signupMaxPerIp: env.SIGNUP_MAX_PER_IP,
    passwordCost: env.PASSWORD_COST,
    payments: {
      mode: env.PAYMENTS_MODE ?? 'sandbox',
      /** Razorpay's API; in sandbox mode the imitation in this server is used instead. */
      baseUrl: env.RAZORPAY_BASE_URL.replace(/\/$/, ''),
      /** In sandbox mode these may be left out: they are generated once into DATA_DIR. */
      keyId: env.RAZORPAY_KEY_ID,
      keySecret: env.RAZORPAY_KEY_SECRET,
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
      /** A plan made in Razorpay's dashboard; otherwise one is created for the price on first use. */
      planId: env.RAZORPAY_PLAN_ID,
      /**
       * The default plan's price when it is created on first start (features/plans), as entered and as
       * charged: plus GST when a registered seller's prices exclude it. After that the admin sets prices.
       */
      listPricePaise: Math.round(env.SUBSCRIPTION_PRICE * 100),
      pricePaise: Math.round(env.SUBSCRIPTION_PRICE * 100 * (env.SELLER_GSTIN && env.PRICES_INCLUDE_TAX === 'no' ? 1 + env.GST_RATE / 100 : 1)),
      /** Prices are entered before GST, which is added to what is charged (a GSTIN and PRICES_INCLUDE_TAX=no). */
      pricesAddTax: Boolean(env.SELLER_GSTIN) && env.PRICES_INCLUDE_TAX === 'no',
      refundWindowDays: env.REFUND_WINDOW_DAYS,
    },
    /**
     * Who issues the invoices and receipts, and the tax on them (features/billing), as the environment
     * sets it: the dashboard's settings fill in what it leaves out (features/settings, sellerOf).
     */
    seller: {
      name: env.SELLER_NAME ?? 'LMS Learning',
      address: env.SELLER_ADDRESS ?? 'Bengaluru 560001, Karnataka, India',
      stateCode: (env.SELLER_STATE ?? env.SELLER_GSTIN?.slice(0, 2) ?? DEFAULT_SELLER_STATE) as StateCode,
      gstin: env.SELLER_GSTIN ?? null,
      sac: env.SELLER_SAC,
      /** Percent; charged only by a seller with a GSTIN. */
      gstRate: env.GST_RATE,
      /** What the environment sets, which the dashboard cannot change. */
      fromEnvironment: {
        legalName: env.SELLER_NAME !== undefined,
        address: env.SELLER_ADDRESS !== undefined,
        gstin: env.SELLER_GSTIN !== undefined,
        stateCode: env.SELLER_STATE !== undefined,
      },
    },
    /** Content protection's limits as the environment sets them, which win over the dashboard's (features/protection). */
    protection: { maxStreams: env.MAX_STREAMS, maxDevices: env.MAX_DEVICES },
    /** Whether the first start of an empty site adds the demo courses. */
    demoContent: env.DEMO_CONTENT === 'on',
    /** Where contact messages are mailed; by default to every administrator. */
    contactEmail: env.CONTACT_EMAIL,
    logLevel: env.LOG_LEVEL,
    eventLoopStatsFile: env.EVENT_LOOP_STATS_FILE,
    /** Requests in flight get this long to finish after SIGTERM or Ctrl-C; then the process exits without them. */
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    /** Prometheus metrics (metrics.ts): off unless a port or a token is given; with both, the port asks for the token. */
    metrics: { port: env.METRICS_PORT, token: env.METRICS_TOKEN },
  };
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: a hop count, or a list of proxy addresses and
 * CIDRs. Never `true`: trusting every hop would let a client name its own address in
 * X-Forwarded-For and so slip past every per-address limit.
 */
function toTrustProxy(value: string | undefined, context: z.RefinementCtx): false | number | string[] {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  if (value === 'true') {
    context.addIssue({
      code: 'custom',
      message: 'true would trust any X-Forwarded-For a client sends; give the number of proxies in front (e.g. 1) or their addresses/CIDRs',
    });
    return z.NEVER;
  }
  const list = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  try {
    compileProxyList(list);
  } catch (error) {
    context.addIssue({ code: 'custom', message: `a hop count, or proxy addresses and CIDRs separated by commas (${(error as Error).message})` });
    return z.NEVER;
  }
  return list;
}

/** Links in mail point where the server listens, unless it listens on every interface. */
function defaultPublicUrl(host: string, port: number): string {
  const everywhere = host === '0.0.0.0' || host === '::' || host === '[::]';
  const name = everywhere ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
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
