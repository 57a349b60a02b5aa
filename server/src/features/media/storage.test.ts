import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3 } from '../../test/s3.ts';
import { createS3Storage, s3Origins, type S3Settings } from './s3-storage.ts';
import { isValidMediaSignature } from './signed-urls.ts';
import { createLocalStorage } from './local-storage.ts';
import { isMediaKey, saveAvatar, saveLectureVideo, saveThumbnail, type MediaStorage } from './storage.ts';

const SECRET = 'storage-test-secret-storage-test-secret';
const MiB = 1024 * 1024;

interface Backend {
  storage: MediaStorage;
  /** Local only: the folder the storage writes into. */
  root?: string;
  /** S3 only: where the test server listens. */
  settings?: S3Settings;
  close(): Promise<void>;
}

async function openBackend(kind: 'local' | 's3'): Promise<Backend> {
  if (kind === 'local') {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-storage-'));
    const root = path.join(folder, 'media');
    return { storage: createLocalStorage(root, SECRET), root, close: () => fs.rm(folder, { recursive: true, force: true }) };
  }
  const s3 = await startTestS3();
  return { storage: await createS3Storage(s3.settings), settings: s3.settings, close: s3.close };
}

const newVideoKey = () => `videos/${randomBytes(16).toString('hex')}.mp4`;

/**
 * `bytes` of varied content made 64 KiB at a time, never held whole; `digest()`
 * gives the SHA-256 of what was sent. With `failAfter` the stream errors once
 * that many bytes have gone out, like a client that went away mid-upload.
 */
function generatedStream(bytes: number, { failAfter }: { failAfter?: number } = {}) {
  const hash = createHash('sha256');
  const block = randomBytes(64 * 1024);
  async function* chunks() {
    for (let sent = 0, index = 0; sent < bytes; index++) {
      if (failAfter !== undefined && sent >= failAfter) throw new Error('client went away');
      const chunk = Buffer.from(block.subarray(0, Math.min(block.length, bytes - sent)));
      if (chunk.length >= 4) chunk.writeUInt32BE(index, 0);
      hash.update(chunk);
      sent += chunk.length;
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks(), { objectMode: false }), digest: () => hash.digest('hex') };
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe.each(['local', 's3'] as const)('%s media storage', (kind) => {
  let backend: Backend;
  let storage: MediaStorage;

  beforeAll(async () => {
    backend = await openBackend(kind);
    storage = backend.storage;
  });
  afterAll(() => backend?.close());

  it('reads back a stored buffer byte for byte and knows its size', async () => {
    const key = newVideoKey();
    const bytes = randomBytes(100_000);
    await storage.put(key, bytes, 'video/mp4');
    expect(await storage.stat(key)).toEqual({ bytes: bytes.length });
    expect((await buffer(storage.read(key))).equals(bytes)).toBe(true);
  });

  it('stores a 40 MB stream and gives the same bytes back', async () => {
    const key = newVideoKey();
    const size = 40 * MiB + 12_345; // several upload parts and a short last one
    const source = generatedStream(size);
    await storage.put(key, source.stream, 'video/mp4');
    expect(await storage.stat(key)).toEqual({ bytes: size });
    expect(await sha256Of(storage.read(key))).toBe(source.digest());
  });

  it('replaces an object stored again under the same key', async () => {
    const key = newVideoKey();
    await storage.put(key, Buffer.from('first version'), 'video/mp4');
    await storage.put(key, Buffer.from('second'), 'video/mp4');
    expect((await buffer(storage.read(key))).toString()).toBe('second');
  });

  it('removes an object, and removing it again is fine', async () => {
    const key = newVideoKey();
    await storage.put(key, randomBytes(1000), 'video/mp4');
    await storage.remove(key);
    expect(await storage.stat(key)).toBeUndefined();
    await expect(storage.remove(key)).resolves.toBeUndefined();
  });

  it('knows nothing of a key never stored, and reading it fails', async () => {
    const key = newVideoKey();
    expect(await storage.stat(key)).toBeUndefined();
    await expect(buffer(storage.read(key))).rejects.toThrow();
  });

  it('leaves nothing behind when the stream breaks half-way', async () => {
    const key = newVideoKey();
    const source = generatedStream(40 * MiB, { failAfter: 20 * MiB }); // past the first upload parts
    await expect(storage.put(key, source.stream, 'video/mp4')).rejects.toThrow('client went away');
    expect(await storage.stat(key)).toBeUndefined();
    if (backend.root) expect(await fs.readdir(path.join(backend.root, 'videos'))).not.toContainEqual(expect.stringMatching(/\.part$/));
  });

  it('makes random media keys by folder, never from a file name', async () => {
    const image = randomBytes(500);
    const avatar = await saveAvatar(storage, image);
    const again = await saveAvatar(storage, image);
    const thumbnail = await saveThumbnail(storage, image);
    const video = await saveLectureVideo(storage, Readable.from([randomBytes(2000)]), { ext: 'webm', mime: 'video/webm' });
    expect(avatar).toMatch(/^avatars\/[0-9a-f]{32}\.webp$/);
    expect(thumbnail).toMatch(/^thumbnails\/[0-9a-f]{32}\.webp$/);
    expect(video).toMatch(/^videos\/[0-9a-f]{32}\.webm$/);
    expect(again).not.toBe(avatar);
    for (const key of [avatar, again, thumbnail, video]) expect(isMediaKey(key)).toBe(true);
    expect(await storage.stat(avatar)).toEqual({ bytes: 500 });
    expect(await storage.stat(video)).toEqual({ bytes: 2000 });
  });

  it('refuses keys it did not make', async () => {
    for (const key of ['../x', 'videos/../../x', 'avatars/x.webp', '/etc/passwd', `videos/${'a'.repeat(32)}.mp4/../x`]) {
      // Through a promise: local `remove` throws before it returns one.
      const attempt = (action: () => Promise<unknown>) => Promise.resolve().then(action);
      await expect(attempt(() => storage.put(key, Buffer.from('x'), 'text/plain'))).rejects.toThrow('Not a media key');
      await expect(attempt(() => storage.stat(key))).rejects.toThrow('Not a media key');
      await expect(attempt(() => storage.remove(key))).rejects.toThrow('Not a media key');
      expect(() => storage.read(key)).toThrow('Not a media key');
    }
    if (backend.root) await expect(fs.access(path.join(backend.root, '..', 'x'))).rejects.toThrow();
  });

  if (kind === 'local') {
    it('serves public media under /media/', () => {
      const key = `thumbnails/${'b'.repeat(32)}.webp`;
      expect(storage.publicUrl(key)).toBe(`/media/${key}`);
    });

    it('signs private URLs for one viewer, one key and one expiry', async () => {
      const grant = { key: newVideoKey(), viewerId: 'user-1', expiresAt: new Date(Date.now() + 60_000) };
      const url = new URL(await storage.privateUrl(grant), 'http://app.test');
      expect(url.pathname).toBe(`/media/private/${grant.key}`);
      expect([...url.searchParams.keys()].sort()).toEqual(['expires', 'signature', 'viewer']);
      expect(url.searchParams.get('viewer')).toBe('user-1');
      expect(url.searchParams.get('expires')).toBe(String(Math.floor(grant.expiresAt.getTime() / 1000)));
      const signature = url.searchParams.get('signature')!;
      expect(isValidMediaSignature(SECRET, grant, signature)).toBe(true);
      expect(isValidMediaSignature(SECRET, { ...grant, viewerId: 'user-2' }, signature)).toBe(false);
      expect(isValidMediaSignature(SECRET, { ...grant, key: newVideoKey() }, signature)).toBe(false);
      expect(isValidMediaSignature(SECRET, { ...grant, expiresAt: new Date(grant.expiresAt.getTime() + 1000) }, signature)).toBe(false);
      expect(isValidMediaSignature('another-secret-another-secret-another', grant, signature)).toBe(false);
    });
  }

  if (kind === 's3') {
    it('serves public media from the bucket URL', async () => {
      const key = await saveThumbnail(storage, Buffer.from('a thumbnail'));
      const url = storage.publicUrl(key);
      expect(url).toBe(`${backend.settings!.endpoint}/${backend.settings!.bucket}/${key}`);
      // s3rver lets anyone read; on S3 a bucket policy does that for the public folders.
      expect(await (await fetch(url)).text()).toBe('a thumbnail');
    });

    it('serves public media from a CDN when one is set, and names the origins for the CSP', async () => {
      const settings = { ...backend.settings!, publicUrl: 'https://cdn.example.com/lms/' };
      const cdn = await createS3Storage(settings);
      const key = `avatars/${'c'.repeat(32)}.webp`;
      expect(cdn.publicUrl(key)).toBe(`https://cdn.example.com/lms/${key}`);
      expect(s3Origins(settings)).toEqual(['https://cdn.example.com', new URL(settings.endpoint!).origin]);
      expect(s3Origins(backend.settings!)).toEqual([new URL(backend.settings!.endpoint!).origin]);
    });

    // s3rver checks a presigned URL's expiry but not its SigV4 signature, so tampering is not tested here.
    it('presigns private URLs that work until they expire', async () => {
      const bytes = randomBytes(10_000);
      const key = newVideoKey();
      await storage.put(key, bytes, 'video/mp4');
      const url = await storage.privateUrl({ key, viewerId: 'user-1', expiresAt: new Date(Date.now() + 1500) });
      expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('2');
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
      await sleep(3000);
      expect((await fetch(url)).status).toBe(403);
    });
  }
});
