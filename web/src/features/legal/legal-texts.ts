import { messages } from '@lms/contract/messages';
import type { LegalPage } from '@lms/contract/settings';

/** The words of the legal pages and their editor: they load with those pages, not with every page's first chunk. */
export const legalTexts = {
  title: { terms: messages.termsTitle, privacy: messages.privacyTitle, 'refund-policy': messages.refundPolicyTitle } satisfies Record<LegalPage, string>,
  loading: 'Loading the page',
  failed: 'This page could not be loaded just now.',
  template: 'Template — review before going live',
  templateHint:
    'This is the starting text, written from your settings. Read it, change what does not fit your business, and save it. Visitors do not see this note.',
  edit: 'Edit page',
  editing: (title: string) => `Editing: ${title}`,
  text: 'Page text (Markdown)',
  markdownHint: '# Heading, ## Section, **bold**, *italic*, - list item, [link text](https://example.com). HTML is shown as plain text.',
  preview: 'Preview',
  save: 'Save',
  cancel: 'Cancel',
  backToTemplate: 'Back to the template',
  confirmBackToTemplate: (title: string) => `Replace your ${title} with the starting template? Your text will be lost.`,
  empty: 'Write the page before saving.',
  tooLong: (max: number) => `At most ${max.toLocaleString('en-IN')} characters.`,
};
