import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { LEGAL_PAGES, type LegalPage } from '@lms/contract/settings';
import { AppError } from '../../errors.ts';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { currentUser } from '../auth/guards.ts';
import { removeLogo, setLogo } from './logo.ts';
import { readLegalPage, readSettings, resetLegalPage, saveLegalPage, updateSettings } from './settings.service.ts';
import { siteOf } from './site-settings.ts';

/** The seller's site: what every page shows of it, the administrator's settings, the logo and the legal pages. */
export const settingsRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.site.get, {
    handler: async () => ({ success: true, message: answers.siteFetched, site: await siteOf(ctx) }),
  });

  route(app, api.settings.get, {
    handler: async () => ({ success: true, message: answers.settingsFetched, settings: await readSettings(ctx) }),
  });

  route(app, api.settings.update, {
    handler: async (request) => ({
      success: true,
      message: answers.settingsSaved,
      settings: await updateSettings(ctx, request.body, currentUser(request).id),
    }),
  });

  route(app, api.settings.setLogo, {
    // Each upload is decoded, drawn again and made into four icons.
    rateLimit: rateLimited({ limiter: 'logoUploadsPerAccount', key: byAccount }),
    handler: async (request) => ({ success: true, message: answers.logoSaved, settings: await setLogo(ctx, request) }),
  });

  route(app, api.settings.removeLogo, {
    handler: async (request) => ({ success: true, message: answers.logoRemoved, settings: await removeLogo(ctx, currentUser(request).id) }),
  });

  route(app, api.legalPages.get, {
    handler: async (request) => ({ success: true, message: answers.legalPageFetched, page: await readLegalPage(ctx, legalPageOf(request.params.page)) }),
  });

  route(app, api.legalPages.update, {
    handler: async (request) => ({
      success: true,
      message: answers.legalPageSaved,
      page: await saveLegalPage(ctx, legalPageOf(request.params.page), request.body.markdown, currentUser(request).id),
    }),
  });

  route(app, api.legalPages.reset, {
    handler: async (request) => ({ success: true, message: answers.legalPageSaved, page: await resetLegalPage(ctx, legalPageOf(request.params.page)) }),
  });
};

/** The legal page a path names; any other name is a page that does not exist. */
function legalPageOf(name: string): LegalPage {
  if ((LEGAL_PAGES as readonly string[]).includes(name)) return name as LegalPage;
  throw new AppError(404, answers.notFound);
}
