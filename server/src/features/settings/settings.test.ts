import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { DEFAULT_SITE } from '@lms/contract/site';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';

let t: TestApp;
let admin: string;
let learner: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  learner = (await signUp(t.app)).cookie;
});
afterAll(() => t?.close());

const patch = (payload: object, cookie = admin) => t.app.inject({ method: 'PATCH', url: '/api/v1/settings', payload, headers: { cookie } });
const site = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/site' })).json().site;

describe('site settings', () => {
  it('a fresh site has the product’s name and no testimonials', async () => {
    expect(await site()).toMatchObject({ name: DEFAULT_SITE.name, testimonials: [], logo: null, brand: null });
  });

  it('an administrator renames the site; visitors see it at once', async () => {
    const response = await patch({ name: '  Acme Academy ', shortName: 'Acme' });
    expect(response.statusCode).toBe(200);
    expect(response.json().settings.site.name).toBe('Acme Academy');
    expect(await site()).toMatchObject({ name: 'Acme Academy', shortName: 'Acme' });
  });

  it('only administrators change settings', async () => {
    expect((await patch({ name: 'Mine' }, learner)).statusCode).toBe(403);
    expect((await site()).name).toBe('Acme Academy');
  });

  it('refuses a brand colour that fails contrast, naming the ratio', async () => {
    const response = await patch({ brand: { light: { primary: '#ffcc00', content: '#ffffff' }, dark: { primary: '#ffcc00', content: '#000000' } } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, message: expect.stringMatching(/reads at 1\.\d:1/) });
  });

  it('an empty social link is not kept', async () => {
    await patch({ social: { facebook: 'https://facebook.com/acme', instagram: '', twitter: '', linkedin: '', youtube: '' } });
    expect((await site()).social).toMatchObject({ facebook: 'https://facebook.com/acme', instagram: '' });
    expect((await patch({ social: { facebook: 'javascript:alert(1)', instagram: '', twitter: '', linkedin: '', youtube: '' } })).json().message).toBe(
      answers.linkInvalid,
    );
  });
});
