/**
 * A failed payment's reason as the provider gave it (Razorpay's `error.description`), fit to show:
 * text only, on one line, of a sensible length; nothing for none (the sandbox's and Razorpay's "NA").
 */
export function reasonToShow(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  if (!text || text === 'NA') return undefined;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
