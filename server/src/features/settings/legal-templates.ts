import type { LegalPage, Site } from '@lms/contract/settings';
import type { RuntimeConfig } from '../../secrets.ts';
import type { Seller } from './site-settings.ts';

/** What a starting text is written from: the seller as the settings name it, and the rules the server applies. */
export interface TemplateFacts {
  site: Site;
  seller: Seller;
  config: RuntimeConfig;
}

/**
 * A legal page's starting text, in Markdown, until the seller saves their own: written from the
 * settings and the server's own rules (the refund window), and marked as a template to review.
 */
export function legalTemplate(page: LegalPage, { site }: TemplateFacts): string {
  return `# ${page}\n\n${site.name}`;
}
