import { PAGE_ANSWERS_ID } from '@lms/contract/pages';

/**
 * How long after the navigation the answers sent with the page stand in for the API's: they are
 * for the page's first reads, not for the same reads made again much later in the same tab.
 */
const FRESH_MS = 30_000;

/** The answers the server sent with this page (see server/src/web-app.ts), by URL below the API root; read on first use. */
let answers: Map<string, unknown> | undefined;

function sentWithPage(): Map<string, unknown> {
  if (answers) return answers;
  answers = new Map();
  const element = typeof document === 'undefined' ? null : document.getElementById(PAGE_ANSWERS_ID);
  if (!element) return answers;
  element.remove();
  try {
    for (const [url, body] of Object.entries(JSON.parse(element.textContent ?? '{}') as Record<string, unknown>)) answers.set(url, body);
  } catch {
    // A page cut short: its reads go to the API.
  }
  return answers;
}

/**
 * The answer the server sent with the page to a read of `path` (below the API root), once: the
 * first read of it takes it, a later one asks the API. Undefined when none was sent, or once the
 * page's first moments are over.
 */
export function takePageAnswer(path: string): unknown {
  const sent = sentWithPage();
  if (sent.size === 0) return undefined;
  if (performance.now() > FRESH_MS) {
    sent.clear();
    return undefined;
  }
  const answer = sent.get(path);
  sent.delete(path);
  return answer;
}

/** Forgets the answers sent with the page: a write may change what they would be. */
export function dropPageAnswers() {
  sentWithPage().clear();
}
