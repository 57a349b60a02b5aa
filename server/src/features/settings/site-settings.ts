import { inArray, sql } from 'drizzle-orm';
import type { StateCode } from '@lms/contract/billing';
import {
  LEGAL_PAGES,
  SettingsUpdateSchema,
  SOCIAL_NETWORKS,
  type LegalPage,
  type LegalPageText,
  type Settings,
  type CheckedSettingsUpdate,
  type Site,
} from '@lms/contract/settings';
import { addressLines } from '@lms/contract/plain-text';
import { DEFAULT_PROTECTION, type ProtectionSettings } from '@lms/contract/protection';
import { DEFAULT_SITE } from '@lms/contract/site';
import type { Context } from '../../context.ts';
import { siteSettings } from '../../db/schema.ts';
import { legalTemplate } from './legal-templates.ts';

/** The sizes of the square icons made from the logo: favicon, Apple touch icon, and the manifest's two. */
export const ICON_SIZES = [32, 180, 192, 512] as const;
export type IconSize = (typeof ICON_SIZES)[number];

/** The logo as stored: its file and the icons made from it, by storage key (public media). */
export interface StoredLogo {
  key: string;
  mime: string;
  width: number;
  height: number;
  icons: Record<IconSize, string>;
}

/** The seller on invoices, credit notes and mail: the environment's values, else the dashboard's, else the defaults. */
export type Seller = Omit<Context['config']['seller'], 'fromEnvironment'>;

/** Everything the settings decide, read once per change and kept in memory by every instance. */
export interface SiteSnapshot {
  site: Site;
  seller: Seller;
  logo: StoredLogo | null;
  pages: Record<LegalPage, LegalPageText>;
  /** The dashboard's own seller fields, shown on the settings page beside the environment's. */
  sellerSettings: { legalName: string; gstin: string; stateCode: string };
  /** Content protection as it applies: the environment's limits, else the dashboard's, else the defaults. */
  protection: ProtectionSettings;
  /** The dashboard's own protection settings, kept beside the environment's limits that win over them. */
  protectionSettings: ProtectionSettings;
}

/** Each instance's copy of the settings; any change to them, from any instance, drops it. */
export interface SettingsCache {
  current(): Promise<SiteSnapshot>;
  forget(): void;
}

export function createSettingsCache(load: () => Promise<SiteSnapshot>): SettingsCache {
  let copy: Promise<SiteSnapshot> | undefined;
  return {
    current() {
      if (!copy) {
        const loading = load();
        copy = loading;
        // A failed read is not kept: the next call tries again.
        loading.catch(() => {
          if (copy === loading) copy = undefined;
        });
      }
      return copy;
    },
    forget() {
      copy = undefined;
    },
  };
}

export const siteOf = async (ctx: Context): Promise<Site> => (await ctx.settings.current()).site;
export const sellerOf = async (ctx: Context): Promise<Seller> => (await ctx.settings.current()).seller;
export const protectionOf = async (ctx: Context): Promise<ProtectionSettings> => (await ctx.settings.current()).protection;

/** The rows' keys: one per field, and one per line of the grouped fields. */
type FieldKey = string;
const pageKey = (page: LegalPage) => `page:${page}`;

/** Reads every row and builds the snapshot; a row that no longer parses counts as unset. */
export async function loadSettings(ctx: Context): Promise<SiteSnapshot> {
  const rows = await ctx.db.select({ key: siteSettings.key, value: siteSettings.value }).from(siteSettings);
  const stored = new Map<FieldKey, unknown>(rows.map((row) => [row.key, row.value]));
  const field = <T>(key: FieldKey, schema: { safeParse(value: unknown): { success: true; data: T | undefined } | { success: false } }, fallback: T): T => {
    if (!stored.has(key)) return fallback;
    const parsed = schema.safeParse(stored.get(key));
    return parsed.success && parsed.data !== undefined ? parsed.data : fallback;
  };
  const fields = SettingsUpdateSchema.shape;
  const text = (key: FieldKey, fallback = '') => {
    const value = stored.get(key);
    return typeof value === 'string' ? value : fallback;
  };

  const { config } = ctx;
  const env = config.seller.fromEnvironment;
  const sellerSettings = { legalName: text('seller.legalName'), gstin: text('seller.gstin'), stateCode: text('seller.stateCode') };
  const name = field('name', fields.name, DEFAULT_SITE.name);
  const contact = { email: text('contact.email'), phone: text('contact.phone'), address: text('contact.address') };
  const gstin = env.gstin ? config.seller.gstin : sellerSettings.gstin || null;
  const seller: Seller = {
    name: env.legalName ? config.seller.name : sellerSettings.legalName || (stored.has('name') ? name : config.seller.name),
    // The contact address's lines, as the invoice's PDF prints them: one under the other.
    address: env.address ? config.seller.address : addressLines(contact.address).join('\n') || config.seller.address,
    // A GSTIN names its state in its first two digits.
    stateCode: (gstin?.slice(0, 2) ?? (env.stateCode ? config.seller.stateCode : sellerSettings.stateCode || config.seller.stateCode)) as StateCode,
    gstin,
    sac: config.seller.sac,
    gstRate: config.seller.gstRate,
  };

  const logo = (stored.get('logo') as StoredLogo | undefined) ?? null;
  const site: Site = {
    name,
    shortName: field('shortName', fields.shortName, stored.has('name') ? Array.from(name).slice(0, 12).join('').trim() : DEFAULT_SITE.shortName),
    logo: logo && { url: ctx.media.publicUrl(logo.key), width: logo.width, height: logo.height },
    brand: field('brand', fields.brand, null),
    hero: { headline: text('hero.headline') || null, text: text('hero.text') || null },
    testimonials: field('testimonials', fields.testimonials, []),
    faq: field('faq', fields.faq, null),
    social: Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, text(`social.${network}`)])) as Site['social'],
    contact,
    legalName: seller.name,
  };
  const pages = Object.fromEntries(
    LEGAL_PAGES.map((page) => {
      const markdown = stored.get(pageKey(page));
      return [
        page,
        typeof markdown === 'string' ? { page, markdown, template: false } : { page, markdown: legalTemplate(page, { site, seller, config }), template: true },
      ];
    }),
  ) as Record<LegalPage, LegalPageText>;
  const protectionSettings: ProtectionSettings = field('protection', fields.protection, DEFAULT_PROTECTION) ?? DEFAULT_PROTECTION;
  const protection = { ...protectionSettings };
  const envProtection = config.protection;
  if (envProtection.maxStreams !== undefined) protection.maxStreams = envProtection.maxStreams;
  if (envProtection.maxDevices !== undefined) protection.maxDevices = envProtection.maxDevices;
  return { site, seller, logo, pages, sellerSettings, protection, protectionSettings };
}

/** The settings page's view: the site, the seller's fields, and which the environment holds. */
export function settingsView(ctx: Context, snapshot: SiteSnapshot): Settings {
  const env = ctx.config.seller.fromEnvironment;
  return {
    site: snapshot.site,
    seller: {
      legalName: env.legalName ? ctx.config.seller.name : snapshot.sellerSettings.legalName,
      gstin: env.gstin ? (ctx.config.seller.gstin ?? '') : snapshot.sellerSettings.gstin,
      // A fresh site shows the state invoices use until one is chosen, so the form always sends one.
      stateCode: env.stateCode || env.gstin ? snapshot.seller.stateCode : snapshot.sellerSettings.stateCode || snapshot.seller.stateCode,
    },
    fromEnvironment: { legalName: env.legalName, gstin: env.gstin, stateCode: env.stateCode || env.gstin },
    templates: LEGAL_PAGES.filter((page) => snapshot.pages[page].template),
    protection: {
      ...snapshot.protection,
      fromEnvironment: {
        maxStreams: ctx.config.protection.maxStreams !== undefined,
        maxDevices: ctx.config.protection.maxDevices !== undefined,
      },
    },
  };
}

/** A parsed update as rows: the grouped fields (hero, social, contact, seller) a row per line. */
export function updateRows(update: CheckedSettingsUpdate): [FieldKey, unknown][] {
  const rows: [FieldKey, unknown][] = [];
  for (const [field, value] of Object.entries(update)) {
    if (value === undefined) continue;
    if (field === 'hero' || field === 'social' || field === 'contact' || field === 'seller') {
      for (const [line, lineValue] of Object.entries(value as Record<string, unknown>)) rows.push([`${field}.${line}`, lineValue === '' ? null : lineValue]);
    } else rows.push([field, value]);
  }
  return rows;
}

/** The advisory lock settings writes take, apart from the migrations' (db/client.ts). */
const SETTINGS_WRITE_LOCK = 7412;

/**
 * Writes `rows` in one transaction: each field is one write's value, and fields another administrator
 * saved meanwhile stay theirs. Answers once this instance has heard the change.
 */
export async function writeSettings(ctx: Context, rows: [FieldKey, unknown][], by: string | null): Promise<void> {
  if (rows.length === 0) return;
  // Null puts a field back to its default, which is no row at all.
  const cleared = rows.filter(([, value]) => value === null).map(([key]) => key);
  const set = rows.filter(([, value]) => value !== null);
  await ctx.db.transaction(async (tx) => {
    // One write at a time: a field of several rows (the social links) is cleared and set by two
    // statements, and two saves interleaving them would keep half of each. Saves are rare.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SETTINGS_WRITE_LOCK})`);
    if (cleared.length > 0) await tx.delete(siteSettings).where(inArray(siteSettings.key, cleared));
    if (set.length === 0) return;
    await tx
      .insert(siteSettings)
      .values(set.map(([key, value]) => ({ key, value: value as object, updatedBy: by })))
      .onConflictDoUpdate({
        target: siteSettings.key,
        set: { value: sql`excluded.value`, updatedAt: sql`now()`, updatedBy: sql`excluded.updated_by` },
      });
  });
  await ctx.changes.caughtUp();
}

export { pageKey };
