export interface ClusterOptions {
  /** Where the variables are read from (the same `npm start` honours, and CLUSTER_INSTANCES); process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** How many instances; CLUSTER_INSTANCES, else 2. */
  instances?: number;
  /** Where nginx listens; PORT, else 3000. 0: a free port (the instances' ports are free ones too). */
  port?: number;
  /** nginx's address; HOST, else 127.0.0.1. The instances always listen on 127.0.0.1. */
  host?: string;
  /** The cluster's folder, relative to the checkout; DATA_DIR, else data-cluster. */
  dataDir?: string;
  /** Each line a child writes; by default printed as `name | line`. */
  log?: (name: string, line: string) => void;
  /** A child that exits once the cluster has started, unless stop() was asked for. */
  onExit?: (name: string, status: ExitStatus) => void;
  /** Aborting it stops a start under way (startCluster then rejects). */
  signal?: AbortSignal;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

export interface ClusterInstance {
  name: string;
  /** The instance itself, bypassing nginx. */
  url: string;
  pid: number;
  dataDir: string;
  /** With METRICS_PORT set: METRICS_PORT for the first instance, the next port for the second, … */
  metricsPort?: number;
  exited: Promise<ExitStatus>;
  /** Sends `signal` (SIGTERM by default) to the instance and whatever it started. */
  kill(signal?: NodeJS.Signals): void;
}

export interface Cluster {
  /** Where nginx listens, as this machine reaches it. */
  url: string;
  /** PUBLIC_URL as the instances have it. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string;
  redisUrl: string;
  s3Endpoint: string;
  nginx: { pid: number; configFile: string };
  instances: ClusterInstance[];
  /** Stops the instances and nginx, then s3rver; resolves once all have exited. */
  stop(): Promise<void>;
}

export const CLUSTER_DEFAULTS: { instances: number; port: number; dataDir: string; databaseUrl: string; redisUrl: string };

/** Starts s3rver (unless S3_* name a store), the instances one after the first, then nginx; resolves once nginx answers. */
export function startCluster(options?: ClusterOptions): Promise<Cluster>;

/** Creates the database of `url` when it is missing; `fresh` drops it first. */
export function prepareDatabase(url: string, options?: { fresh?: boolean }): Promise<void>;

/**
 * The nginx configuration the cluster runs with: its files in `prefix`, its temporary files in
 * `tempDir`, its workers as `worker` when given (root starts it).
 */
export function nginxConfig(options: {
  prefix: string;
  tempDir: string;
  worker?: { user: string; group: string };
  listen: string;
  upstreams: string[];
  maxBodyBytes: number;
}): string;

/** Whether the server at `url` is ready: its /readyz where it has one, else its /healthz. */
export function isReady(url: string): Promise<boolean>;
