import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { mediaRoot } from './features/media/storage.ts';
import { createTestApp, type TestApp } from './test/app.ts';
import { startTestS3 } from './test/s3.ts';

describe('GET /readyz with local media storage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers 200 while the database and the media folder answer', async () => {
    const response = await t.app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
  });

  it('answers 503 while the instance drains, and every answer then tells the client to close its connection', async () => {
    t.app.draining = true;
    try {
      const ready = await t.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ success: false, message: answers.serverDraining });
      // Liveness is another question: the process is fine, only on its way out.
      const alive = await t.app.inject({ url: '/healthz' });
      expect(alive.statusCode).toBe(200);
      expect(alive.headers.connection).toBe('close');
      expect((await t.app.inject({ url: '/api/v1/courses' })).headers.connection).toBe('close');
    } finally {
      t.app.draining = false;
    }
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/healthz' })).headers.connection).not.toBe('close');
  });

  it('answers 503 while the media folder is not usable, and 200 again once it is back', async () => {
    // A file where the folder was: what root sees too (chmod would not keep root out).
    const folder = mediaRoot(t.dataDir);
    await fs.rename(folder, `${folder}.away`);
    await fs.writeFile(folder, 'not a folder');
    try {
      const response = await t.app.inject({ url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ success: false, message: answers.serverNotReady });
    } finally {
      await fs.rm(folder);
      await fs.rename(`${folder}.away`, folder);
    }
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('GET /readyz with S3 media storage', () => {
  let s3: Awaited<ReturnType<typeof startTestS3>>;
  let s3Running = false;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startTestS3();
    s3Running = true;
    t = await createTestApp({ env: s3.env });
  });
  afterAll(async () => {
    await t?.close();
    if (s3Running) await s3.close();
  });

  it('answers 200 while the bucket answers, and 503 within its time limit once the S3 service refuses connections', async () => {
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);

    await s3.close();
    s3Running = false;
    const started = Date.now();
    const response = await t.app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ success: false, message: answers.serverNotReady });
    // The probe's limit is 2 s; a balancer's probe must never hang.
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
