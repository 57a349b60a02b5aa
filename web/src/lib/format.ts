/** Dates as people in India write them: "23 Dec 2026", on the calendar of Asia/Kolkata. */
const indianDate = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' });

/**
 * An ISO timestamp from the API as a date ("23 Dec 2026"), held together by no-break spaces so
 * that a sentence never splits it across lines; undefined when there is none or it is not a date.
 */
export function formatDate(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : indianDate.format(date).replace(/ /g, '\u00a0');
}

/** Rupees as the storefront shows them: "₹99", "₹149.50". */
export const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', trailingZeroDisplay: 'stripIfInteger' });

/** A lecture's length as a player shows it: "0:08", "12:34", "1:02:03". */
export function clockDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A course's total length in words, to the minute past one: "24s", "12m", "1h 5m". */
export function spokenDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${total}s`;
  const minutes = Math.round(total / 60);
  const [h, m] = [Math.floor(minutes / 60), minutes % 60];
  if (!h) return `${m}m`;
  return m ? `${h}h ${m}m` : `${h}h`;
}

/** An ISO 8601 duration for `<time dateTime>`: "PT1H2M3S". */
export const isoDuration = (seconds: number) => {
  const total = Math.max(0, Math.round(seconds));
  return `PT${Math.floor(total / 3600)}H${Math.floor((total % 3600) / 60)}M${total % 60}S`;
};
