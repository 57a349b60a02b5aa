import type { Contact } from '@lms/contract/contact';
import { messages } from '@lms/contract/messages';
import { api } from '../../app/api';

/** Spec §7's POST /contact, sending the fields the spec's original left out. Failures toast through the api client. */
export const sendContactMessage = (input: Contact) => api.post('/contact', input, { fallback: messages.failedSubmitForm });
