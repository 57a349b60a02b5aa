import { createRequire } from 'node:module';
import { and, eq, isNull } from 'drizzle-orm';
import { INDIAN_STATES, isStateCode } from '@lms/contract/billing';
import { ADDRESS_MAX_LINES, addressLines, isLayoutCharacter } from '@lms/contract/plain-text';
import type { Context } from '../../context.ts';
import { billingDocuments } from '../../db/schema.ts';
import { saveDocumentPdf } from '../media/storage.ts';
import { formatIndiaDate, rupees } from './format.ts';
import { queueMailOfDocument } from './lifecycle-mail.ts';

type DocumentRow = typeof billingDocuments.$inferSelect;

const require = createRequire(import.meta.url);
/** DejaVu Sans has the rupee sign (U+20B9); the PDF standard fonts do not. Embedded, subset by pdfkit. */
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const stateName = (code: string | null) => (code && isStateCode(code) ? `${INDIAN_STATES[code]} (${code})` : null);

/**
 * What the buyer typed is checked when it is saved (BillingDetailsSchema); what was saved before
 * those checks, or came another way, still cannot add a line: a control character prints as a space…
 */
const printable = (text: string) => {
  let plain = '';
  for (const char of text) plain += isLayoutCharacter(char.charCodeAt(0)) ? ' ' : char;
  return plain;
};

/** …and the address prints as its lines, at most ADDRESS_MAX_LINES of them (the last takes whatever is left over). */
function printedAddress(address: string | null): string[] {
  if (!address) return [];
  const lines = addressLines(address).map(printable);
  if (lines.length <= ADDRESS_MAX_LINES) return lines;
  return [...lines.slice(0, ADDRESS_MAX_LINES - 1), lines.slice(ADDRESS_MAX_LINES - 1).join(', ')];
}

const titleOf = (document: DocumentRow) =>
  document.kind === 'credit_note' ? 'Credit Note' : document.documentType === 'tax_invoice' ? 'Tax Invoice' : 'Receipt';

/**
 * One invoice, receipt or credit note as an A4 PDF with what Rule 46 (and Rule 53 for credit
 * notes) asks of it: the seller and buyer, a consecutive number, the date, the SAC, the taxable
 * value and each tax, the place of supply. Issued electronically, so no signature (Rule 46(q)).
 */
export async function renderDocumentPdf(document: DocumentRow, invoiceNumber?: string): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `${titleOf(document)} ${document.number}`, Author: document.seller.name } });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });
  pdf.registerFont('text', FONT);
  pdf.registerFont('bold', FONT_BOLD);
  const { seller, buyer } = document;
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;

  pdf.font('bold').fontSize(20).text(titleOf(document), left, 56);
  pdf.font('text').fontSize(10).fillColor('#444');
  pdf.text(`No. ${document.number}`).text(`Date ${formatIndiaDate(document.issuedAt)}`);
  if (document.kind === 'credit_note' && invoiceNumber) pdf.text(`Against invoice ${invoiceNumber}`);
  pdf.moveDown();

  const top = pdf.y;
  const column = (x: number, heading: string, lines: (string | null | false)[]) => {
    pdf
      .font('bold')
      .fontSize(9)
      .fillColor('#666')
      .text(heading, x, top, { width: width / 2 - 12 });
    pdf.font('text').fontSize(10).fillColor('#111');
    for (const line of lines) if (line) pdf.text(printable(line), { width: width / 2 - 12 });
    return pdf.y;
  };
  const sellerEnd = column(left, 'FROM', [
    seller.name,
    ...printedAddress(seller.address),
    stateName(seller.stateCode),
    seller.gstin && `GSTIN ${seller.gstin}`,
  ]);
  const buyerEnd = column(left + width / 2, 'TO', [
    buyer.businessName ?? buyer.name,
    buyer.businessName && buyer.name,
    buyer.email,
    ...printedAddress(buyer.address),
    stateName(buyer.stateCode),
    buyer.gstin && `GSTIN ${buyer.gstin}`,
  ]);
  pdf.y = Math.max(sellerEnd, buyerEnd) + 18;

  const rows: [string, string][] = [];
  const taxed = document.documentType === 'tax_invoice';
  if (taxed) {
    rows.push(['Taxable value', rupees(document.taxablePaise)]);
    const half = document.taxRate / 2;
    if (document.igstPaise > 0 || document.cgstPaise === 0) rows.push([`IGST ${document.taxRate}%`, rupees(document.igstPaise)]);
    else rows.push([`CGST ${half}%`, rupees(document.cgstPaise)], [`SGST ${half}%`, rupees(document.sgstPaise)]);
  }
  rows.push([document.kind === 'credit_note' ? 'Total credited' : 'Total paid', rupees(document.totalPaise)]);

  pdf.x = left;
  pdf.font('bold').fontSize(9).fillColor('#666').text('DESCRIPTION', left, pdf.y);
  pdf.font('text').fontSize(11).fillColor('#111').text(printable(document.description), { width });
  if (taxed)
    pdf
      .fontSize(9)
      .fillColor('#444')
      .text(`SAC ${seller.sac} · Place of supply: ${stateName(document.placeOfSupply) ?? document.placeOfSupply}`);
  pdf.moveDown();
  for (const [label, amount] of rows) {
    const y = pdf.y;
    const total = label.startsWith('Total');
    pdf
      .font(total ? 'bold' : 'text')
      .fontSize(total ? 12 : 10)
      .fillColor('#111');
    pdf.text(label, left, y, { width: width - 140 });
    pdf.text(amount, left + width - 140, y, { width: 140, align: 'right' });
    pdf.moveDown(0.3);
  }
  pdf.moveDown(2);
  pdf.font('text').fontSize(8).fillColor('#666');
  if (taxed) pdf.text('Tax is not payable on reverse charge. This is a computer-generated document and needs no signature.', left, pdf.y, { width });
  else pdf.text('The seller is not registered for GST; no tax is charged. This is a computer-generated document.', left, pdf.y, { width });
  pdf.end();
  await finished;
  return Buffer.concat(chunks);
}

/**
 * The `billing-pdf` job: makes a document's PDF and stores it privately, once. A retry after a
 * crash finds the key set and does nothing; of two runs at once, the second's file is removed.
 */
export async function makeDocumentPdf(ctx: Context, { documentId }: { documentId: string }): Promise<void> {
  const [document] = await ctx.db.select().from(billingDocuments).where(eq(billingDocuments.id, documentId));
  if (!document || document.pdfKey) return;
  const [invoice] = document.invoiceId
    ? await ctx.db.select({ number: billingDocuments.number }).from(billingDocuments).where(eq(billingDocuments.id, document.invoiceId))
    : [];
  const bytes = await renderDocumentPdf(document, invoice?.number);
  const key = await saveDocumentPdf(ctx.media, bytes);
  const [stored] = await ctx.db
    .update(billingDocuments)
    .set({ pdfKey: key })
    .where(and(eq(billingDocuments.id, documentId), isNull(billingDocuments.pdfKey)))
    .returning({ id: billingDocuments.id });
  if (!stored) return ctx.media.remove(key);
  // The receipt or refund mail carries this PDF: it can go now.
  await queueMailOfDocument(ctx, document);
}
