import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../media/download-headers.ts';
import { downloadName, FILE_NAME_MAX } from './file-names.ts';

describe('downloadName', () => {
  it.each([
    ['Workbook.pdf', 'application/pdf', 'Workbook.pdf'],
    ['C:\\Users\\asha\\Desktop\\notes.txt', 'text/plain', 'notes.txt'],
    ['../../etc/passwd', 'text/plain', 'passwd.txt'],
    ['%22quoted%22 name.pdf', 'application/pdf', 'quoted name.pdf'],
    ['"quoted" \'name\'.pdf', 'application/pdf', 'quoted name.pdf'],
    ['tab\tand\nnew line.txt', 'text/plain', 'tab and new line.txt'],
    ['bell\u0007.txt', 'text/plain', 'bell.txt'],
    // A right-to-left override would show "photo\u202Egnp.exe" as "photoexe.png".
    ['photo\u202Egnp.exe', 'image/png', 'photognp.exe.png'],
    ['what? <draft>: v2|final*.zip', 'application/zip', 'what draft v2final.zip'],
    ['a " b.pdf', 'application/pdf', 'a b.pdf'],
    ['  .hidden.  ', 'text/plain', 'hidden.txt'],
    ['Photo.JPEG', 'image/jpeg', 'Photo.JPEG'],
    ['Photo.jpg', 'image/png', 'Photo.jpg.png'],
    ['setup.bat', 'text/plain', 'setup.bat.txt'],
    ['scores.csv', 'text/plain', 'scores.csv'],
    ['Résumé 2026 📒.pdf', 'application/pdf', 'Résumé 2026 📒.pdf'],
    ['', 'application/pdf', 'file.pdf'],
    [undefined, 'application/zip', 'file.zip'],
    ['"".pdf', 'application/pdf', 'file.pdf'],
  ] as const)('%j as %s downloads as %j', (sent, mime, expected) => {
    expect(downloadName(sent, mime)).toBe(expected);
  });

  it('cuts a long name to the limit, keeping its ending and never splitting a character', () => {
    const name = downloadName(`${'📒'.repeat(200)}.pdf`, 'application/pdf');
    expect(Array.from(name)).toHaveLength(FILE_NAME_MAX);
    expect(name).toBe(`${'📒'.repeat(FILE_NAME_MAX - 4)}.pdf`);
    // No half of a surrogate pair is left: the name survives a round trip through UTF-8.
    expect(Buffer.from(name).toString()).toBe(name);
  });
});

describe('attachmentDisposition', () => {
  it.each([
    ['Workbook.pdf', `attachment; filename="Workbook.pdf"; filename*=UTF-8''Workbook.pdf`],
    ['Résumé 2026.pdf', `attachment; filename="Resume 2026.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf`],
    ['会計 (1).txt', `attachment; filename="__ (1).txt"; filename*=UTF-8''%E4%BC%9A%E8%A8%88%20%281%29.txt`],
    ['100% done*.txt', `attachment; filename="100_ done*.txt"; filename*=UTF-8''100%25%20done%2A.txt`],
    // Never reached with a name downloadName made, and still a well-formed header.
    ['a"b\\c.txt', `attachment; filename="a_b_c.txt"; filename*=UTF-8''a%22b%5Cc.txt`],
  ])('saves %j with an ASCII fallback and the UTF-8 name', (name, header) => {
    expect(attachmentDisposition(name)).toBe(header);
  });
});
