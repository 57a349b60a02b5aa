import { pagePaths } from '@lms/contract/pages';

/**
 * Every route of the web app (spec §2), from the one list in contract/ that the server reads too,
 * and the places inside a page that links point at.
 */
export const paths = {
  ...pagePaths,
  /** Where the refund rule is explained in full: the home page's question about it, until it has a page of its own. */
  refundPolicy: '/#faq-refund',
} as const;
