import { createRequire } from 'node:module';
import { and, eq, isNull, lt } from 'drizzle-orm';
import { certificateCodeForDisplay } from '@lms/contract/certificates';
import { isLayoutCharacter } from '@lms/contract/plain-text';
import type { Context } from '../../context.ts';
import { certificates } from '../../db/schema.ts';
import { certificatePdfKey, saveCertificatePdf } from '../media/storage.ts';
import type { CertificateRow } from './certificates.service.ts';
import { verifyUrlOf } from './certificates.service.ts';

const require = createRequire(import.meta.url);
/** DejaVu covers the scripts names are written in far beyond Latin; embedded, subset by pdfkit. */
const SERIF = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif.ttf');
const SERIF_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf');
const SANS = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

const INK = '#1c2430';
const MUTED = '#5b6472';
const ACCENT = '#1f3a5f';
const GOLD = '#b08d57';

/** A control character (a line break in a name saved before the checks) prints as a space. */
const printable = (text: string) => {
  let plain = '';
  for (const char of text) plain += isLayoutCharacter(char.charCodeAt(0)) ? ' ' : char;
  return plain.replace(/\s+/g, ' ').trim();
};

const longDate = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', day: 'numeric', month: 'long', year: 'numeric' });
/** "27 November 2026", in India's calendar as the seller's other documents are. */
export const certificateDate = (date: Date) => longDate.format(date);

export interface CertificatePrint {
  certificate: Pick<CertificateRow, 'code' | 'name' | 'courseTitle' | 'instructor' | 'issuer' | 'issuedAt'>;
  verifyUrl: string;
  /** The seller's logo as PNG or JPEG bytes, drawn above the title; none without a logo. */
  logo?: Buffer;
  /** Tests read the text with compression off; pdfjs reads it either way. */
  compress?: boolean;
}

/**
 * A certificate as an A4 landscape PDF: a framed page, the title, the learner's name large, the
 * course, its instructor, the date and the issuer, and at the foot the code and the page that
 * verifies it, so that anyone holding the paper can check it.
 */
export async function renderCertificatePdf({ certificate, verifyUrl, logo, compress = true }: CertificatePrint): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const name = printable(certificate.name);
  const courseTitle = printable(certificate.courseTitle);
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 0,
    compress,
    info: { Title: `Certificate of completion: ${courseTitle}`, Author: printable(certificate.issuer), Subject: name },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });
  pdf.registerFont('serif', SERIF);
  pdf.registerFont('serif-bold', SERIF_BOLD);
  pdf.registerFont('sans', SANS);
  const { width, height } = pdf.page;

  // The frame: a dark outer line and a thin gold one inside it.
  pdf
    .lineWidth(3)
    .strokeColor(ACCENT)
    .rect(24, 24, width - 48, height - 48)
    .stroke();
  pdf
    .lineWidth(0.8)
    .strokeColor(GOLD)
    .rect(34, 34, width - 68, height - 68)
    .stroke();

  const left = 90;
  const inner = width - 2 * left;
  const centred = (text: string, y: number, options: PDFKit.Mixins.TextOptions = {}) => pdf.text(text, left, y, { width: inner, align: 'center', ...options });

  let y = 62;
  if (logo) {
    try {
      pdf.image(logo, width / 2 - 90, y, { fit: [180, 44], align: 'center', valign: 'center' });
      y += 56;
    } catch {
      // A logo pdfkit cannot read leaves the certificate without it rather than without a PDF.
    }
  } else y += 12;

  pdf.font('sans').fontSize(13).fillColor(ACCENT);
  centred('CERTIFICATE OF COMPLETION', y, { characterSpacing: 4 });
  y += 44;
  pdf.font('serif').fontSize(13).fillColor(MUTED);
  centred('This certifies that', y);
  y += 30;

  // The name on one line: smaller type for a long name, down to a size still read from across a room.
  let size = 38;
  pdf.font('serif-bold');
  while (size > 22 && pdf.fontSize(size).widthOfString(name) > inner) size -= 2;
  pdf.fontSize(size).fillColor(INK);
  centred(name, y, { height: size * 2.6, ellipsis: true });
  y = Math.max(pdf.y, y + size * 1.3) + 6;
  pdf
    .moveTo(width / 2 - 120, y)
    .lineTo(width / 2 + 120, y)
    .lineWidth(0.8)
    .strokeColor(GOLD)
    .stroke();
  y += 16;

  pdf.font('serif').fontSize(13).fillColor(MUTED);
  centred('has completed the course', y);
  y += 26;
  pdf.font('serif-bold').fontSize(22).fillColor(ACCENT);
  centred(courseTitle, y, { height: 62, ellipsis: true });
  y = Math.min(pdf.y, y + 62) + 8;
  pdf.font('serif').fontSize(12).fillColor(MUTED);
  centred(`taught by ${printable(certificate.instructor)}`, y);

  // The date and the issuer, each above a line, as signatures sit on a printed certificate.
  const footY = height - 150;
  const column = (x: number, value: string, label: string) => {
    pdf.font('serif-bold').fontSize(13).fillColor(INK).text(value, x, footY, { width: 220, align: 'center', height: 34, ellipsis: true });
    pdf
      .moveTo(x + 20, footY + 36)
      .lineTo(x + 200, footY + 36)
      .lineWidth(0.6)
      .strokeColor(MUTED)
      .stroke();
    pdf
      .font('sans')
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, x, footY + 42, { width: 220, align: 'center', characterSpacing: 1 });
  };
  column(left + 20, certificateDate(certificate.issuedAt), 'DATE');
  column(width - left - 240, printable(certificate.issuer), 'ISSUED BY');

  pdf.font('sans').fontSize(9).fillColor(MUTED);
  centred(`Certificate code ${certificateCodeForDisplay(certificate.code)}`, height - 82);
  centred(`Verify at ${verifyUrl}`, height - 68, { link: verifyUrl });
  pdf.end();
  await finished;
  return Buffer.concat(chunks);
}

/** The seller's logo as pdfkit can draw it (PNG), or nothing without one or when it cannot be read. */
async function logoForPrint(ctx: Context): Promise<Buffer | undefined> {
  const { logo } = await ctx.settings.current();
  if (!logo) return undefined;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.media.read(logo.key)) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (logo.mime === 'image/png') return bytes;
    const { default: sharp } = await import('sharp');
    return await sharp(bytes).png().toBuffer();
  } catch {
    return undefined;
  }
}

/**
 * The `certificate-pdf` job: makes a certificate's PDF with its current name and stores it
 * privately. Its key is named after the certificate and the name (certificatePdfKey), so a retry,
 * or a job for a certificate whose PDF already has its name, does nothing. Made again after the
 * learner chose their name: the new file is stored, the row's key swapped to it, then the old
 * file removed; until then the old one stays downloadable.
 */
export async function makeCertificatePdf(ctx: Context, { certificateId }: { certificateId: string }): Promise<void> {
  const [certificate] = await ctx.db.select().from(certificates).where(eq(certificates.id, certificateId));
  if (!certificate) return;
  const key = certificatePdfKey(certificate.id, certificate.name);
  if (certificate.pdfKey === key) return;
  const bytes = await renderCertificatePdf({ certificate, verifyUrl: verifyUrlOf(ctx, certificate.code), logo: await logoForPrint(ctx) });
  await saveCertificatePdf(ctx.media, key, bytes);
  // The file this run leaves unnamed, removed once the swap committed. Should the transaction fail,
  // the new file is left to the leftovers sweep: a run beside this one may name the same key.
  const unused = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: certificates.name, pdfKey: certificates.pdfKey })
      .from(certificates)
      .where(eq(certificates.id, certificateId))
      .for('update');
    if (!row) return key;
    // Renamed meanwhile: the job queued with the new name makes that PDF. Another run of this
    // job stored the same file first: it is the one named.
    if (row.name !== certificate.name || row.pdfKey === key) return row.pdfKey === key ? null : key;
    await tx.update(certificates).set({ pdfKey: key }).where(eq(certificates.id, certificateId));
    return row.pdfKey;
  });
  if (unused) await ctx.media.remove(unused);
}

/** How long a certificate may wait for its first PDF before the sweep queues it again (a process died between commit and queue). */
const PDF_STALL_MS = 60_000;

/** Queues again the PDFs of certificates issued a while ago that still have none; every minute, on one instance. */
export async function queueStalledCertificatePdfs(ctx: Context): Promise<number> {
  const stalled = await ctx.db
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(isNull(certificates.pdfKey), lt(certificates.issuedAt, new Date(Date.now() - PDF_STALL_MS))))
    .limit(500);
  // The id is the certificate's: the sweep queues each one once, however many minutes it waits.
  for (const { id } of stalled) await ctx.jobs.send('certificate-pdf', { certificateId: id }, { id }).catch(() => undefined);
  return stalled.length;
}
