import { messages } from '@lms/contract/messages';

/** A form's field as its check sees it: the label the form shows, and what was entered (a file, or text). */
export type FieldEntry = readonly [label: string, value: string | File | null | undefined];

/**
 * The spec's text for a form sent with fields left empty (blank text counts as empty), naming
 * them in the form's order: "All fields are mandatory — Course thumbnail is missing". Undefined
 * when every field has something in it, and the form's other rules come next.
 */
export function missingFieldsText(specText: string, fields: readonly FieldEntry[]): string | undefined {
  const missing = fields.filter(([, value]) => (typeof value === 'string' ? value.trim() === '' : !value)).map(([label]) => label);
  return missing.length ? messages.missingFields(specText, missing) : undefined;
}
