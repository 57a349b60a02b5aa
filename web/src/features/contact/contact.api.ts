import type { Contact } from '@lms/contract/contact';
import { endpoints } from '@lms/contract/endpoints';
import { messages } from '@lms/contract/messages';
import { call } from '../../lib/api-client';

/**
 * Spec §7's POST /contact, sending the fields the spec's original left out. A one-shot write that
 * nothing on this page reads back, so a direct call: this page does not load the server-state cache.
 * Failures toast through the api client.
 */
export const sendContactMessage = (input: Contact) => call(endpoints.contact.send, { body: input }, { fallback: messages.failedSubmitForm });
