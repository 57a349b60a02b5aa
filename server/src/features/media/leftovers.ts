import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Context } from '../../context.ts';
import { billingDocuments, certificates, courses, lectureCaptions, lectureResources, lectures, siteSettings, users } from '../../db/schema.ts';
import { isHlsFolderKey, ownerKeyOf, StorageCannotList } from './storage.ts';

/**
 * Every column that holds a media key. A file no row names here is deleted by the sweep once
 * it is old enough, so a new column that keeps a key must be added (leftovers.test.ts checks
 * the schema for columns named `…Key`). The site's logo is the one exception: its keys are inside
 * the `logo` row of the site settings (`referencedAmong` reads them there).
 */
export const MEDIA_KEY_COLUMNS = [
  users.avatarKey,
  courses.thumbnailKey,
  lectures.videoKey,
  lectures.posterKey,
  lectures.hlsKey,
  lectures.replacementVideoKey,
  lectureResources.fileKey,
  lectureCaptions.fileKey,
  billingDocuments.pdfKey,
  certificates.pdfKey,
];

/** The age past which a file nobody refers to is a leftover: an upload sends data at least this often, and a stored file is referred to at once. */
export const LEFTOVER_AGE_MS = 60 * 60 * 1000;
const BATCH = 500;

export interface SweepOptions {
  /** Only what was last written longer ago than this is removed. */
  olderThanMs: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** How many files are checked against the database at once (tests make it small). */
  batchSize?: number;
  /** Stops between batches, e.g. when the server shuts down. */
  signal?: AbortSignal;
}

/**
 * Removes what crashes and failed requests leave in media storage: unfinished uploads (a
 * `kill -9` during a 300 MB lecture upload leaves its `.part` file, or on S3 its multipart
 * upload) and stored files no row refers to. Only what is older than `olderThanMs`: an upload
 * in progress keeps touching its temporary file, and a finished one is referred to at once.
 * Run at start and periodically; answers how many of each it removed.
 */
export async function sweepMediaLeftovers(
  ctx: Pick<Context, 'db' | 'media'>,
  { olderThanMs, log, batchSize = BATCH, signal }: SweepOptions,
): Promise<{ temporary: number; stored: number }> {
  const cutoff = Date.now() - olderThanMs;
  let temporary = 0;
  let stored = 0;
  try {
    for await (const batch of oldInBatches(ctx.media.listTemporary(), cutoff, batchSize)) {
      if (signal?.aborted) return { temporary, stored };
      const removed = await removeEach(batch, (upload) => ctx.media.removeTemporary(upload), log);
      temporary += report(log, removed, 'removed unfinished uploads left by a crash or a broken connection');
    }
  } catch (error) {
    if (!(error instanceof StorageCannotList)) throw error;
    // Not worth stopping for: the files are still swept, and a bucket rule can do the rest.
    log.info(`${error.message} Let the bucket abort them instead: a lifecycle rule with AbortIncompleteMultipartUpload (DaysAfterInitiation: 1).`);
  }
  const removedFolders = new Set<string>();
  for await (const batch of oldInBatches(ctx.media.listStored(), cutoff, batchSize)) {
    if (signal?.aborted) break;
    // Asked per batch, right before deleting: never the whole table into memory, never a stale answer.
    // A playlist or segment belongs to its HLS folder, which is what a lecture row names.
    const referenced = await referencedAmong(ctx, [...new Set(batch.map((file) => ownerKeyOf(file.key)))]);
    // An HLS folder nobody names goes whole, folder and all, rather than a file at a time (and once,
    // though its files may come in several batches).
    const unreferenced = [...new Set(batch.map((file) => ownerKeyOf(file.key)))].filter((key) => !referenced.has(key) && !removedFolders.has(key));
    const removed = await removeEach(
      unreferenced.map((key) => ({ key })),
      (file) => ctx.media.remove(file.key),
      log,
    );
    for (const key of removed) if (isHlsFolderKey(key)) removedFolders.add(key);
    stored += report(log, removed, 'removed media files no row refers to');
  }
  return { temporary, stored };
}

async function* oldInBatches<T extends { modifiedAt: Date }>(items: AsyncIterable<T>, cutoff: number, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    if (item.modifiedAt.getTime() >= cutoff) continue;
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function referencedAmong(ctx: Pick<Context, 'db'>, keys: string[]): Promise<Set<string>> {
  const referenced = new Set<string>();
  for (const column of MEDIA_KEY_COLUMNS) {
    const rows = await ctx.db.select({ key: column }).from(column.table).where(inArray(column, keys));
    for (const { key } of rows) if (key) referenced.add(key);
  }
  // The site's logo and its icons are named by a settings row's JSON, not by a column.
  const [logo] = await ctx.db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, 'logo'));
  const wanted = new Set(keys);
  for (const key of logoFileKeys(logo?.value)) if (wanted.has(key)) referenced.add(key);
  return referenced;
}

/** The files a stored logo row names: the logo and each icon. */
export function logoFileKeys(value: unknown): string[] {
  const logo = value as { key?: unknown; icons?: Record<string, unknown> } | undefined;
  if (!logo || typeof logo.key !== 'string') return [];
  return [logo.key, ...Object.values(logo.icons ?? {}).filter((key): key is string => typeof key === 'string')];
}

/** Removes each item, going on past one that fails (the next sweep tries it again); answers the keys removed. */
async function removeEach<T extends { key: string }>(items: T[], remove: (item: T) => Promise<void>, log: SweepOptions['log']): Promise<string[]> {
  const removed: string[] = [];
  for (const item of items) {
    try {
      await remove(item);
      removed.push(item.key);
    } catch (error) {
      log.warn({ err: error, key: item.key }, 'could not remove a media leftover');
    }
  }
  return removed;
}

function report(log: SweepOptions['log'], keys: string[], message: string): number {
  if (keys.length > 0) log.info({ count: keys.length, keys }, message);
  return keys.length;
}
