import { answers } from '@lms/contract/answers';
import type { CheckedSettingsUpdate, LegalPage, LegalPageText, Settings } from '@lms/contract/settings';
import type { Context } from '../../context.ts';
import { siteSettings } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { pageKey, settingsView, updateRows, writeSettings } from './site-settings.ts';
import { eq } from 'drizzle-orm';

const SELLER_LABELS = { legalName: 'Legal name', gstin: 'GSTIN', stateCode: 'State' } as const;

export async function readSettings(ctx: Context): Promise<Settings> {
  return settingsView(ctx, await ctx.settings.current());
}

/**
 * Saves the fields `update` names, each whole. The seller's fields the environment sets cannot
 * change here: sent as they are, they are left alone; sent otherwise, refused.
 */
export async function updateSettings(ctx: Context, update: CheckedSettingsUpdate, by: string): Promise<Settings> {
  const { seller, protection, ...rest } = update;
  const rows = updateRows(rest);
  if (protection !== undefined) {
    // A limit the environment sets keeps the dashboard's own value underneath, for when it is unset.
    const stored = (await ctx.settings.current()).protectionSettings;
    const env = ctx.config.protection;
    rows.push(
      ...updateRows({
        protection: protection && {
          ...protection,
          ...(env.maxStreams !== undefined && { maxStreams: stored.maxStreams }),
          ...(env.maxDevices !== undefined && { maxDevices: stored.maxDevices }),
        },
      }),
    );
  }
  if (seller) {
    const env = ctx.config.seller.fromEnvironment;
    const current = await readSettings(ctx);
    const locked = { legalName: env.legalName, gstin: env.gstin, stateCode: current.fromEnvironment.stateCode };
    const own: Partial<Record<keyof typeof SELLER_LABELS, string>> = {};
    for (const field of Object.keys(SELLER_LABELS) as (keyof typeof SELLER_LABELS)[]) {
      const value = seller[field] ?? '';
      if (!locked[field]) own[field] = value;
      else if (value !== current.seller[field]) throw new AppError(400, answers.settingFromEnvironment(SELLER_LABELS[field]));
    }
    // The GSTIN's first two digits are its state, wherever each of the two is set.
    const gstin = env.gstin ? current.seller.gstin : (own.gstin ?? '');
    const stateCode = locked.stateCode ? current.seller.stateCode : own.stateCode;
    if (gstin && stateCode && gstin.slice(0, 2) !== stateCode) throw new AppError(400, answers.gstinStateMismatch);
    rows.push(...updateRows({ seller: own as NonNullable<CheckedSettingsUpdate['seller']> }));
  }
  await writeSettings(ctx, rows, by);
  return readSettings(ctx);
}

export async function readLegalPage(ctx: Context, page: LegalPage): Promise<LegalPageText> {
  return (await ctx.settings.current()).pages[page];
}

export async function saveLegalPage(ctx: Context, page: LegalPage, markdown: string, by: string): Promise<LegalPageText> {
  await writeSettings(ctx, [[pageKey(page), markdown]], by);
  return readLegalPage(ctx, page);
}

/** Back to the starting template: the page's row goes. */
export async function resetLegalPage(ctx: Context, page: LegalPage): Promise<LegalPageText> {
  await ctx.db.delete(siteSettings).where(eq(siteSettings.key, pageKey(page)));
  await ctx.changes.caughtUp();
  return readLegalPage(ctx, page);
}
