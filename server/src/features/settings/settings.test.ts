import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { gstinCheckCharacter } from '@lms/contract/billing';
import { DEFAULT_PROTECTION } from '@lms/contract/protection';
import { LEGAL_PAGES } from '@lms/contract/settings';
import { DEFAULT_SITE } from '@lms/contract/site';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { waitForParsedMails } from '../../test/mail.ts';
import { apiCaller, subscriber } from '../../test/payments.ts';
import { pdfText } from '../../test/pdf.ts';
import { legalTemplate } from './legal-templates.ts';
import { protectionOf } from './site-settings.ts';

const GSTIN_29 = `29AAACL1234C1Z${gstinCheckCharacter('29AAACL1234C1Z')}`;
const GSTIN_27 = `27AAPFU0939F1Z${gstinCheckCharacter('27AAPFU0939F1Z')}`;

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

const settingsView = async (cookie = admin) => (await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: { cookie } })).json().settings;
const page = (name: string, method: 'GET' | 'PUT' | 'DELETE' = 'GET', cookie?: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/pages/${name}`, payload, headers: cookie ? { cookie } : {} });
const NO_SOCIAL = { facebook: '', instagram: '', twitter: '', linkedin: '', youtube: '' };

describe('legal pages', () => {
  it('each starts as a template marked for review, naming the seller and the refund window as configured', async () => {
    for (const name of LEGAL_PAGES) {
      const response = await page(name);
      expect(response.statusCode).toBe(200);
      expect(response.json().page).toMatchObject({ page: name, template: true });
      const { markdown } = response.json().page;
      expect(markdown).toMatch(/^# .+\n\n> \*\*Template — review before going live\.\*\*/);
      expect(markdown).toContain(t.config.seller.name);
    }
    const refunds = (await page('refund-policy')).json().page.markdown;
    expect(refunds).toContain(`within **14 days of your last payment**`);
    expect(refunds).toContain('**once in any 12 months**');
    expect((await page('privacy')).json().page.markdown).toMatch(/no advertising or tracking cookies/);
  });

  it('the refund policy states the window the server applies, whatever it is configured to', async () => {
    const { site, seller } = await t.app.ctx.settings.current();
    const refundPolicy = (refundWindowDays: number) =>
      legalTemplate('refund-policy', {
        site,
        seller: { ...seller, name: 'Asha *Learning*' },
        config: { ...t.config, payments: { ...t.config.payments, refundWindowDays } },
      });
    expect(refundPolicy(7)).toContain('within **7 days of your last payment**');
    expect(refundPolicy(7)).not.toContain('14 days');
    expect(refundPolicy(30)).toContain('within **30 days of your last payment**');
    expect(refundPolicy(1)).toContain('within **1 day of your last payment**');
    // No window: the refund rule never refunds, and the page says so.
    expect(refundPolicy(0)).toContain('Payments are **not refunded**');
    // The seller's name reads as typed, not as Markdown.
    expect(refundPolicy(7)).toContain('Asha \\*Learning\\*');
  });

  it('an administrator saves a page, which replaces the template until it is reset', async () => {
    expect((await settingsView()).templates).toEqual([...LEGAL_PAGES]);
    const saved = await page('refund-policy', 'PUT', admin, { markdown: '  # Refunds\n\nAsk us within a week.  ' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().page).toEqual({ page: 'refund-policy', markdown: '# Refunds\n\nAsk us within a week.', template: false });
    expect((await page('refund-policy')).json().page).toMatchObject({ markdown: '# Refunds\n\nAsk us within a week.', template: false });
    expect((await settingsView()).templates).toEqual(['terms', 'privacy']);

    const reset = await page('refund-policy', 'DELETE', admin);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().page).toMatchObject({ page: 'refund-policy', template: true, markdown: expect.stringContaining('Template — review') });
    expect((await settingsView()).templates).toEqual([...LEGAL_PAGES]);
  });

  it('refuses an unknown page, an empty text, and anyone but an administrator', async () => {
    // A page that does not exist, as any page not found.
    expect((await page('cookies')).json()).toEqual({ success: false, message: answers.notFound });
    expect((await page('cookies')).statusCode).toBe(404);
    expect((await page('cookies', 'PUT', admin, { markdown: 'x' })).statusCode).toBe(404);
    expect((await page('terms', 'PUT', admin, { markdown: '   ' })).json()).toMatchObject({ success: false, message: answers.settingRequired('Page text') });
    expect((await page('terms', 'PUT', learner, { markdown: '# Mine' })).statusCode).toBe(403);
    expect((await page('terms', 'DELETE', learner)).statusCode).toBe(403);
    expect((await page('terms', 'PUT', undefined, { markdown: '# Mine' })).statusCode).toBe(401);
    expect((await page('terms')).json().page.template).toBe(true);
  });

  it('are listed in the sitemap with the other public pages', async () => {
    const sitemap = (await t.app.inject({ url: '/sitemap.xml' })).body;
    for (const path of ['/terms', '/privacy', '/refund-policy']) expect(sitemap).toContain(`<loc>${t.config.publicUrl}${path}</loc>`);
  });
});

describe('settings validation', () => {
  const SELLER = { legalName: 'LMS Test Seller', gstin: '', stateCode: '29' };
  const contact = (change: object) => ({ contact: { email: '', phone: '', address: '', ...change } });
  const cases: [string, object, string][] = [
    ['a site name too long', { name: 'x'.repeat(61) }, answers.settingTooLong('Site name', 60)],
    ['an empty site name', { name: '   ' }, answers.settingRequired('Site name')],
    ['a site name of two lines', { name: 'Acme\nAcademy' }, answers.settingNotPlain('Site name')],
    ['a short name too long', { shortName: 'x'.repeat(13) }, answers.settingTooLong('Short name', 12)],
    ['a headline too long', { hero: { headline: 'x'.repeat(121), text: '' } }, answers.settingTooLong('Headline', 120)],
    ['an intro too long', { hero: { headline: '', text: 'x'.repeat(401) } }, answers.settingTooLong('Intro text', 400)],
    [
      'too many testimonials',
      { testimonials: Array.from({ length: 13 }, () => ({ quote: 'Good.', name: 'A', role: '' })) },
      answers.tooManyEntries('testimonials', 12),
    ],
    ['a testimonial without a quote', { testimonials: [{ quote: '', name: 'A', role: '' }] }, answers.settingRequired('Quote')],
    ['a question too long', { faq: [{ question: 'x'.repeat(201), answer: 'Yes.' }] }, answers.settingTooLong('Question', 200)],
    ['a bad contact email', contact({ email: 'not-an-email' }), answers.contactEmailInvalid],
    ['a bad phone', contact({ phone: 'call me maybe' }), answers.phoneInvalid],
    ['an address too long', contact({ address: 'x'.repeat(301) }), answers.settingTooLong('Address', 300)],
    ['a javascript: link', { social: { ...NO_SOCIAL, youtube: 'javascript:alert(1)' } }, answers.linkInvalid],
    ['a link that is no web address', { social: { ...NO_SOCIAL, twitter: 'ftp://x.example/acme' } }, answers.linkInvalid],
    ['a link too long', { social: { ...NO_SOCIAL, linkedin: `https://linkedin.com/${'x'.repeat(300)}` } }, answers.settingTooLong('Link', 300)],
    ['a bad GSTIN', { seller: { ...SELLER, gstin: `${GSTIN_29.slice(0, 14)}${GSTIN_29.endsWith('A') ? 'B' : 'A'}` } }, answers.gstinInvalid],
    ['a GSTIN of another state', { seller: { ...SELLER, gstin: GSTIN_29, stateCode: '27' } }, answers.gstinStateMismatch],
    ['a state that is no GST state', { seller: { ...SELLER, stateCode: '99' } }, answers.stateCodeInvalid],
  ];
  it.each(cases)('refuses %s with its message, writing nothing of the change', async (_, change, message) => {
    const before = await settingsView();
    // A good field beside the bad one is not kept either.
    const response = await patch({ shortName: 'Changed', ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
    expect(await settingsView()).toEqual(before);
  });
});

describe('concurrent saves', () => {
  it('keeps both of two changes to different fields, and one of two changes to the same field whole', async () => {
    for (let round = 0; round < 5; round++) {
      const [one, two] = await Promise.all([patch({ hero: { headline: `Learn ${round}`, text: 'Short lessons.' } }), patch({ shortName: `Short${round}` })]);
      expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
      expect(await site()).toMatchObject({ hero: { headline: `Learn ${round}`, text: 'Short lessons.' }, shortName: `Short${round}` });

      const first = { ...NO_SOCIAL, facebook: `https://facebook.com/first${round}`, youtube: `https://youtube.com/first${round}` };
      const second = { ...NO_SOCIAL, instagram: `https://instagram.com/second${round}`, twitter: `https://x.com/second${round}` };
      const saved = await Promise.all([patch({ social: first }), patch({ social: second })]);
      expect(saved.map((response) => response.statusCode)).toEqual([200, 200]);
      expect([first, second]).toContainEqual((await site()).social);
    }
  });
});

describe('the seller from the environment', () => {
  let locked: TestApp;
  let owner: string;
  beforeAll(async () => {
    locked = await createTestApp({ env: { SELLER_GSTIN: GSTIN_29 } });
    owner = (await signUpAdmin(locked.app)).cookie;
  });
  afterAll(() => locked?.close());
  const lockedPatch = (payload: object) => locked.app.inject({ method: 'PATCH', url: '/api/v1/settings', payload, headers: { cookie: owner } });

  it('shows the environment’s values as fixed, refuses a change to them, and takes them sent back unchanged', async () => {
    const view = (await locked.app.inject({ url: '/api/v1/settings', headers: { cookie: owner } })).json().settings;
    expect(view.fromEnvironment).toEqual({ legalName: true, gstin: true, stateCode: true });
    expect(view.seller).toEqual({ legalName: 'LMS Test Seller', gstin: GSTIN_29, stateCode: '29' });

    const renamed = await lockedPatch({ name: 'Other', seller: { ...view.seller, legalName: 'Someone Else Pvt Ltd' } });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().message).toBe(answers.settingFromEnvironment('Legal name'));
    const unregistered = await lockedPatch({ seller: { ...view.seller, gstin: '' } });
    expect(unregistered.json()).toEqual({ success: false, message: answers.settingFromEnvironment('GSTIN') });
    expect((await locked.app.inject({ url: '/api/v1/site' })).json().site).toMatchObject({ name: DEFAULT_SITE.name, legalName: 'LMS Test Seller' });

    const same = await lockedPatch({ name: 'Acme Academy', seller: view.seller });
    expect(same.statusCode).toBe(200);
    expect(same.json().settings.seller).toEqual(view.seller);
    expect((await locked.app.ctx.settings.current()).seller).toMatchObject({ name: 'LMS Test Seller', gstin: GSTIN_29, stateCode: '29' });
  });
});

describe('the seller from the settings', () => {
  let own: TestApp;
  let owner: string;
  // Empty variables count as unset: this server leaves the seller to the dashboard.
  beforeAll(async () => {
    own = await createTestApp({ env: { SELLER_NAME: '', SELLER_ADDRESS: '' } });
    owner = (await signUpAdmin(own.app)).cookie;
  });
  afterAll(() => own?.close());

  async function invoicePdf(cookie: string) {
    for (let i = 0; i < 200; i++) {
      const [entry] = (await apiCaller(own)('GET', '/billing/history', cookie)).json().entries;
      if (entry?.invoice.ready) return pdfText((await apiCaller(own)('GET', `/billing/documents/${entry.invoice.id}/pdf`, cookie)).rawPayload);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the invoice’s PDF was never made');
  }

  it('names the seller the settings give on invoices, and the site in the mails, from the moment they change', async () => {
    const saved = await apiCaller(own)('PATCH', '/settings', owner, {
      name: 'Asha Academy',
      contact: { email: 'hello@asha.example', phone: '', address: '12 FC Road\nPune 411004' },
      seller: { legalName: 'Asha Learning Pvt Ltd', gstin: GSTIN_27, stateCode: '27' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.fromEnvironment).toEqual({ legalName: false, gstin: false, stateCode: false });

    const learner = await subscriber(own);
    const text = await invoicePdf(learner.cookie);
    for (const words of ['Tax Invoice', 'Asha Learning Pvt Ltd', '12 FC Road', 'Pune 411004', `GSTIN ${GSTIN_27}`]) expect(text).toContain(words);
    expect(text).not.toContain('LMS Learning');

    const [receipt] = await waitForParsedMails(own.dataDir, learner.user.email, /^Payment received/);
    expect(receipt!.from?.value).toEqual([{ name: 'Asha Academy', address: 'no-reply@lms.local' }]);
    expect(receipt!.text).toMatch(/— Asha Academy$/);
    expect(receipt!.html).toContain('— Asha Academy');
    expect(receipt!.text).not.toContain('— LMS');

    // A new name applies to the next documents; the issued invoice keeps the seller it was issued by.
    await apiCaller(own)('PATCH', '/settings', owner, { seller: { legalName: 'Asha Edtech LLP', gstin: GSTIN_27, stateCode: '27' } });
    expect(await invoicePdf(learner.cookie)).toContain('Asha Learning Pvt Ltd');
    const next = await subscriber(own);
    expect(await invoicePdf(next.cookie)).toContain('Asha Edtech LLP');
  });
});

describe('content protection', () => {
  const view = async (app = t) => (await app.app.inject({ url: '/api/v1/settings', headers: { cookie: admin } })).json().settings.protection;

  it('starts at the defaults, none set by the environment', async () => {
    expect(await view()).toEqual({ ...DEFAULT_PROTECTION, fromEnvironment: { maxStreams: false, maxDevices: false } });
  });

  it('saves the whole group, and what the server applies follows at once', async () => {
    const protection = { maxStreams: 3, maxDevices: 5, watermarkOpacity: 45, watermarkSize: 'large', riskAddressBlocks: 6, riskRefusals: 20 } as const;
    const saved = await patch({ protection });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.protection).toEqual({ ...protection, fromEnvironment: { maxStreams: false, maxDevices: false } });
    expect(await protectionOf(t.app.ctx)).toEqual(protection);
    expect(await view()).toMatchObject(protection);
    expect((await patch({ protection: DEFAULT_PROTECTION })).statusCode).toBe(200);
  });

  it('refuses a value out of range, naming the field and the range, and keeps what was saved', async () => {
    const cases = [
      [{ maxStreams: 0 }, answers.settingRange('Simultaneous streams', 1, 10)],
      [{ maxDevices: 21 }, answers.settingRange('Signed-in devices', 0, 20)],
      [{ watermarkOpacity: 5 }, answers.settingRange('Watermark opacity', 10, 60)],
      [{ watermarkOpacity: 61 }, answers.settingRange('Watermark opacity', 10, 60)],
      [{ riskAddressBlocks: 1 }, answers.settingRange('Address blocks', 2, 50)],
      [{ riskRefusals: 501 }, answers.settingRange('Refused streams', 1, 500)],
    ] as const;
    for (const [change, message] of cases) {
      const response = await patch({ protection: { ...DEFAULT_PROTECTION, maxStreams: 4, ...change } });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    expect((await patch({ protection: { ...DEFAULT_PROTECTION, watermarkSize: 'huge' } })).json().message).toBe(answers.settingInvalid('Watermark size'));
    expect((await patch({ protection: { maxStreams: 3 } })).statusCode).toBe(400);
    expect(await view()).toMatchObject(DEFAULT_PROTECTION);
  });

  it('is for administrators only', async () => {
    expect((await patch({ protection: { ...DEFAULT_PROTECTION, maxStreams: 9 } }, learner)).statusCode).toBe(403);
    expect((await protectionOf(t.app.ctx)).maxStreams).toBe(DEFAULT_PROTECTION.maxStreams);
  });

  describe('with MAX_STREAMS and MAX_DEVICES in the environment', () => {
    let limited: TestApp;
    let owner: string;
    beforeAll(async () => {
      limited = await createTestApp({ env: { MAX_STREAMS: '3', MAX_DEVICES: '4' } });
      owner = (await signUpAdmin(limited.app)).cookie;
    });
    afterAll(() => limited?.close());

    it('the environment wins over what the dashboard saves', async () => {
      const read = async () => (await limited.app.inject({ url: '/api/v1/settings', headers: { cookie: owner } })).json().settings.protection;
      expect(await read()).toEqual({ ...DEFAULT_PROTECTION, maxStreams: 3, maxDevices: 4, fromEnvironment: { maxStreams: true, maxDevices: true } });

      const saved = await limited.app.inject({
        method: 'PATCH',
        url: '/api/v1/settings',
        payload: { protection: { ...DEFAULT_PROTECTION, maxStreams: 7, maxDevices: 0, watermarkOpacity: 50 } },
        headers: { cookie: owner },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      // The dashboard's own fields are saved; the environment's limits stay.
      expect(saved.json().settings.protection).toMatchObject({ maxStreams: 3, maxDevices: 4, watermarkOpacity: 50 });
      expect(await protectionOf(limited.app.ctx)).toMatchObject({ maxStreams: 3, maxDevices: 4, watermarkOpacity: 50 });
      // What the dashboard had underneath is kept, for when the environment stops setting them.
      expect((await limited.app.ctx.settings.current()).protectionSettings).toMatchObject({ maxStreams: 2, maxDevices: 0, watermarkOpacity: 50 });
    });

    it('goes back to the defaults on null, the environment still winning', async () => {
      const reset = await limited.app.inject({ method: 'PATCH', url: '/api/v1/settings', payload: { protection: null }, headers: { cookie: owner } });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(reset.json().settings.protection).toEqual({
        ...DEFAULT_PROTECTION,
        maxStreams: 3,
        maxDevices: 4,
        fromEnvironment: { maxStreams: true, maxDevices: true },
      });
    });
  });
});
