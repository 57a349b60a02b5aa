import fs from 'node:fs/promises';
import path from 'node:path';
import { count } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';

export async function rowCount(database: Database, table: PgTable): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(table);
  return row!.n;
}

/** The files stored under DATA_DIR/media/<folder>, to check that nothing is left behind. */
export async function mediaFiles(dataDir: string, folder: string): Promise<string[]> {
  return fs.readdir(path.join(dataDir, 'media', folder)).catch(() => []);
}
