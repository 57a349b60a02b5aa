import { asc, count, eq } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import { pagePaths } from '@lms/contract/pages';
import type { Site } from '@lms/contract/settings';
import type { Context } from '../../context.ts';
import { courses } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { certificateDate } from '../certificates/certificate-pdf.ts';
import { findCertificate, verifyUrlOf } from '../certificates/certificates.service.ts';
import { findCourse, THUMBNAIL_SIZE } from '../courses/courses.service.ts';
import { escapeMarkup, summarize, type PageHead } from './page-head.ts';

/** The web app's course page, reached by a shareable URL with the course's id. */
export const COURSE_PAGE_PATH = pagePaths.courseDescription;
/** The pages anyone may open, besides each course's page. */
export const PUBLIC_PAGES = [
  pagePaths.home,
  pagePaths.about,
  pagePaths.courses,
  pagePaths.contact,
  pagePaths.terms,
  pagePaths.privacy,
  pagePaths.refundPolicy,
] as const;
/** The sitemap protocol's limit per file; past it /sitemap.xml becomes an index of /sitemap-N.xml. */
export const SITEMAP_MAX_URLS = 50_000;
/** Where crawlers need not go: personal and admin pages, checkout, the API. */
const PRIVATE_PATHS = ['/admin/', '/user/', '/checkout', '/api/'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The head of every page that has none of its own: the site's name and description. */
export function defaultHead(site: Pick<Site, 'name'>): PageHead {
  return { title: site.name, description: answers.siteDescription, siteName: site.name };
}

export const coursePageUrl = (ctx: Context, courseId: string) => `${ctx.config.publicUrl}${COURSE_PAGE_PATH}?id=${courseId}`;

/** An absolute URL: media URLs are relative with local storage, absolute with S3. */
const absolute = (ctx: Context, url: string) => new URL(url, `${ctx.config.publicUrl}/`).href;

/**
 * The head of a course's page: its title, description, canonical URL and thumbnail. A page
 * for a course that does not exist (or a malformed id) gets the default head, kept out of search results.
 */
export async function coursePageHead(ctx: Context, courseId: string, site: Pick<Site, 'name'>): Promise<PageHead> {
  const course = UUID.test(courseId) ? await findCourse(ctx, courseId).catch(notFoundAs(undefined)) : undefined;
  if (!course) return { ...defaultHead(site), noindex: true };
  return {
    title: `${course.title} · ${site.name}`,
    description: summarize(course.description),
    siteName: site.name,
    url: coursePageUrl(ctx, course.id),
    image: { url: absolute(ctx, ctx.media.publicUrl(course.thumbnailKey)), ...THUMBNAIL_SIZE, alt: course.title },
    // The cover is the course page's largest paint (Lighthouse); the app shows it at the same URL.
    preloadImage: ctx.media.publicUrl(course.thumbnailKey),
  };
}

/** The public page of a certificate, reached by the link its learner shares. */
export const CERTIFICATE_PAGE_PATH = pagePaths.certificate;

/**
 * The head of a certificate's public page, and whether a certificate has that code (the page is
 * then a 404). What a link preview shows: who, which course, by whom and when. Never listed by
 * search engines (`noindex`): the page exists for whoever the learner hands the link to, and a
 * search for a person's name should not turn up their certificates; previews read the tags all the same.
 */
export async function certificatePageHead(ctx: Context, code: string, site: Pick<Site, 'name'>): Promise<{ head: PageHead; found: boolean }> {
  const certificate = await findCertificate(ctx, code);
  if (!certificate)
    return {
      head: { ...defaultHead(site), title: `Certificate not found · ${site.name}`, description: answers.certificateNotFound, noindex: true },
      found: false,
    };
  const issued = `Certificate of completion issued by ${certificate.issuer} on ${certificateDate(certificate.issuedAt)}`;
  return {
    head: {
      title: `${certificate.name} — ${certificate.courseTitle}`,
      description: summarize(certificate.revokedAt ? `${issued}; revoked on ${certificateDate(certificate.revokedAt)}` : issued),
      siteName: site.name,
      url: verifyUrlOf(ctx, certificate.code),
      noindex: true,
    },
    found: true,
  };
}

const notFoundAs =
  <T>(value: T) =>
  (error: unknown): T => {
    if (error instanceof AppError && error.statusCode === 404) return value;
    throw error;
  };

/** robots.txt: everything but the private paths, and where the sitemap is. */
export function robotsTxt(ctx: Context): string {
  return ['User-agent: *', 'Allow: /', ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${ctx.config.publicUrl}/sitemap.xml`, ''].join('\n');
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/**
 * The sitemap: the public pages, then every course's page (oldest first, so a course keeps its
 * place) with the time its page last changed. `part` 1, 2, … is one file of a sitemap too long
 * for one; without it, the whole sitemap, or the index of its parts once it is too long.
 */
export async function buildSitemap(ctx: Context, { part, maxUrls = SITEMAP_MAX_URLS }: { part?: number; maxUrls?: number } = {}): Promise<string> {
  const [counted] = await ctx.db.select({ n: count() }).from(courses).where(eq(courses.status, 'published'));
  const parts = Math.max(1, Math.ceil((PUBLIC_PAGES.length + counted!.n) / maxUrls));
  if (part === undefined) return parts === 1 ? urlSet(ctx, 0, maxUrls) : sitemapIndex(ctx, parts);
  // A single file is only ever /sitemap.xml.
  if (parts === 1 || part < 1 || part > parts) throw new AppError(404, answers.notFound);
  return urlSet(ctx, (part - 1) * maxUrls, maxUrls);
}

/** Entries [start, start + size) of the list: public pages first, then courses. */
async function urlSet(ctx: Context, start: number, size: number): Promise<string> {
  const pages = PUBLIC_PAGES.slice(start, start + size);
  const courseOffset = Math.max(0, start - PUBLIC_PAGES.length);
  const rows = await ctx.db
    .select({ id: courses.id, updatedAt: courses.updatedAt })
    .from(courses)
    .where(eq(courses.status, 'published'))
    .orderBy(asc(courses.createdAt), asc(courses.id))
    .limit(size - pages.length)
    .offset(courseOffset);
  const entries = [
    ...pages.map((page) => `  <url><loc>${escapeMarkup(ctx.config.publicUrl + page)}</loc></url>\n`),
    ...rows.map((course) => `  <url><loc>${escapeMarkup(coursePageUrl(ctx, course.id))}</loc><lastmod>${course.updatedAt.toISOString()}</lastmod></url>\n`),
  ];
  return `${XML_HEAD}<urlset xmlns="${SITEMAP_NS}">\n${entries.join('')}</urlset>\n`;
}

function sitemapIndex(ctx: Context, parts: number): string {
  const entries = Array.from({ length: parts }, (_, i) => `  <sitemap><loc>${escapeMarkup(`${ctx.config.publicUrl}/sitemap-${i + 1}.xml`)}</loc></sitemap>\n`);
  return `${XML_HEAD}<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join('')}</sitemapindex>\n`;
}
