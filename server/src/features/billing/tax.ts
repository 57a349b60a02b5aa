/**
 * What a document says about tax (decision 0016): GST taken out of a tax-inclusive price, as
 * CGST + SGST when the place of supply is the seller's State and IGST otherwise. Amounts are in
 * paise and always add up: taxable + CGST + SGST + IGST = total.
 */

export interface Seller {
  name: string;
  address: string;
  stateCode: string;
  gstin: string | null;
  sac: string;
  /** Percent. */
  gstRate: number;
}

export interface TaxLines {
  /** tax_invoice when the seller has a GSTIN; otherwise a receipt, with no tax on it. */
  documentType: 'tax_invoice' | 'receipt';
  /** The state whose tax applies: the buyer's, or the seller's when the buyer's is unknown (IGST Act s.12(2)). */
  placeOfSupply: string;
  taxRate: number;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
}

/**
 * Splits an amount the buyer paid (tax included, as every charge is) into its taxable value and its
 * tax, by Rule 35: tax = total × rate ÷ (100 + rate). Inside the seller's state the tax is CGST and
 * SGST, half each (an odd paisa goes to CGST); across states it is all IGST.
 */
export function taxLines(seller: Seller, buyerStateCode: string | null, totalPaise: number): TaxLines {
  const placeOfSupply = buyerStateCode ?? seller.stateCode;
  if (!seller.gstin) {
    return { documentType: 'receipt', placeOfSupply, taxRate: 0, taxablePaise: totalPaise, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise };
  }
  const taxablePaise = Math.round((totalPaise * 100) / (100 + seller.gstRate));
  const tax = totalPaise - taxablePaise;
  const intraState = placeOfSupply === seller.stateCode;
  const cgstPaise = intraState ? Math.ceil(tax / 2) : 0;
  return {
    documentType: 'tax_invoice',
    placeOfSupply,
    taxRate: seller.gstRate,
    taxablePaise,
    cgstPaise,
    sgstPaise: intraState ? tax - cgstPaise : 0,
    igstPaise: intraState ? 0 : tax,
    totalPaise,
  };
}

/** Indian financial years run from 1 April to 31 March, in India's time. */
const indiaYearMonth = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', year: 'numeric', month: 'numeric' });

/** `26-27` for any moment from 1 April 2026 00:00 to 31 March 2027 23:59 IST. */
export function fiscalYearOf(date: Date): string {
  const parts = indiaYearMonth.formatToParts(date);
  const year = Number(parts.find((part) => part.type === 'year')!.value);
  const month = Number(parts.find((part) => part.type === 'month')!.value);
  const start = month >= 4 ? year : year - 1;
  const short = (value: number) => String(value % 100).padStart(2, '0');
  return `${short(start)}-${short(start + 1)}`;
}

/** Each kind of document has its own series; a prefix, the year and 6 digits stay within Rule 46's 16 characters. */
export const SERIES = { invoice: 'LMS', credit_note: 'CN' } as const;
export type DocumentKind = keyof typeof SERIES;
const DIGITS = 6;

export function documentNumber(kind: DocumentKind, fiscalYear: string, sequence: number): string {
  // A millionth document in one year would need a seventh digit and break the 16-character rule.
  if (sequence >= 10 ** DIGITS) throw new Error(`the ${kind} series of ${fiscalYear} is full`);
  return `${SERIES[kind]}/${fiscalYear}/${String(sequence).padStart(DIGITS, '0')}`;
}
