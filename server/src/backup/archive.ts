import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { isHlsFolderKey, isMediaKey, MEDIA_FOLDERS } from '../features/media/storage.ts';
import { countFiles, KEPT_FILES, MANIFEST_FILE, type Manifest, type Snapshot } from './snapshot.ts';

/** A file that is not a whole backup of this LMS: truncated, damaged, or something else. */
export class ArchiveError extends Error {}

/** The archive's folders, as in the snapshot, after its manifest. */
const SECTIONS = ['db', 'media', 'kept'] as const;

/**
 * Writes the snapshot as one .tar.gz at `output`, readable only by its owner (it holds password
 * hashes and the secrets), under a temporary name renamed at the end: a failed backup leaves
 * nothing that looks like one. Flushed to disk before the rename.
 *
 * Compressed with zlib's RLE strategy: lecture videos and images do not compress, and deflate
 * spends 4× longer finding that out than RLE (50 against 185 MB/s on the 2-core machine); the
 * database's empty pages still shrink (64 MB to 20, against 10 with deflate's default).
 */
export async function writeArchive(
  snapshot: Snapshot,
  output: string,
  onProgress: (written: number) => void,
  signal?: AbortSignal,
): Promise<{ bytes: number }> {
  const temporary = `${output}.${randomBytes(4).toString('hex')}.partial`;
  let written = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      onProgress(written);
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      tar.c({ cwd: snapshot.folder, portable: true }, [MANIFEST_FILE, ...SECTIONS]),
      counter,
      zlib.createGzip({ strategy: zlib.constants.Z_RLE }),
      createWriteStream(temporary, { flags: 'wx', mode: 0o600, flush: true }),
      { signal },
    );
    await fs.rename(temporary, output);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
  return { bytes: (await fs.stat(output)).size };
}

/**
 * Unpacks a backup into the empty folder `into` and answers its manifest, after checking that
 * every entry is one a backup holds (no links, nothing outside the folder; tar refuses `..` and
 * absolute paths itself) and that every file the manifest counts arrived whole.
 */
export async function extractArchive(file: string, into: string): Promise<Manifest> {
  const unexpected: string[] = [];
  try {
    await tar.x({
      file,
      cwd: into,
      strict: true,
      // Deflate's limit is 1032:1, which the zeros at the end of a WAL segment come near; the file is the operator's own.
      maxDecompressionRatio: Infinity,
      filter: (name, entry) => {
        const type = 'type' in entry ? entry.type : undefined;
        const expected = isExpected(name.replace(/\/$/, ''), type);
        if (!expected) unexpected.push(name);
        return expected;
      },
    });
  } catch (error) {
    throw new ArchiveError(`${file} is damaged or incomplete (${(error as Error).message}).`);
  }
  if (unexpected.length > 0) throw new ArchiveError(`${file} is not a backup made by npm run backup: it holds ${unexpected.slice(0, 3).join(', ')}.`);
  const manifest = await readManifest(file, into);
  for (const section of ['database', 'media'] as const) {
    const found = await countFiles(path.join(into, section === 'database' ? 'db' : 'media'));
    if (found.files !== manifest[section].files || found.bytes !== manifest[section].bytes) {
      throw new ArchiveError(
        `${file} is incomplete: its ${section} should have ${manifest[section].files} files of ${manifest[section].bytes} bytes, and has ${found.files} of ${found.bytes}.`,
      );
    }
  }
  const kept = await fs.readdir(path.join(into, 'kept')).catch((): string[] => []);
  if (manifest.kept.some((name) => !kept.includes(name))) throw new ArchiveError(`${file} is incomplete: it lacks some of ${manifest.kept.join(', ')}.`);
  return manifest;
}

function isExpected(name: string, type: string | undefined): boolean {
  const [section, ...rest] = name.split('/');
  const inner = rest.join('/');
  if (type === 'Directory') {
    if (section === 'db' || (rest.length === 0 && (section === 'media' || section === 'kept'))) return true;
    return section === 'media' && ((MEDIA_FOLDERS as readonly string[]).includes(inner) || isHlsFolderKey(inner));
  }
  if (type !== 'File') return false;
  if (name === MANIFEST_FILE) return true;
  if (section === 'db') return rest.length > 0;
  if (section === 'media') return isMediaKey(inner);
  return section === 'kept' && (KEPT_FILES as readonly string[]).includes(inner);
}

async function readManifest(file: string, into: string): Promise<Manifest> {
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(await fs.readFile(path.join(into, MANIFEST_FILE), 'utf8')) as Partial<Manifest>;
  } catch {
    throw new ArchiveError(`${file} is not a backup made by npm run backup: it has no ${MANIFEST_FILE}.`);
  }
  if (manifest.format !== 'lms-backup' || !manifest.database || !manifest.media || !Array.isArray(manifest.kept)) {
    throw new ArchiveError(`${file} is not a backup made by npm run backup: its ${MANIFEST_FILE} is not one.`);
  }
  if (manifest.version !== 1)
    throw new ArchiveError(`${file} was made by a newer version of this LMS (backup format ${manifest.version}); restore it with that version.`);
  return manifest as Manifest;
}
