import type { Contact } from '@lms/contract/contact';
import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { serverCall, serverState, type CacheDispatch } from '../../lib/server-state';

/** `POST /contact`, with every field the form has. Failures toast through the api client. */
const contactApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    sendContactMessage: build.mutation<ResponseOf<typeof endpoints.contact.send>, Contact>({
      query: (input) => serverCall(endpoints.contact.send, { body: input }, { fallback: messages.failedSubmitForm }),
    }),
  }),
});

export const sendContactMessage = (input: Contact) => (dispatch: CacheDispatch) => dispatch(contactApi.endpoints.sendContactMessage.initiate(input)).unwrap();
