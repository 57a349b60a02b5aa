/**
 * Text that is printed on an invoice or put in a mail header must say only what it shows. A line
 * break lets a buyer add a line of their own to a tax invoice ("GSTIN …" under their address); a
 * bidirectional override makes a subject or a name read differently from what it holds. Every
 * check here is one pass over the text (no backtracking pattern), so a long hostile input costs
 * no more than a long honest one.
 */

/**
 * Characters that change the layout or the reading order rather than add to the text: C0 controls
 * (tab and line feed included), DEL, C1 controls, the Unicode line and paragraph separators, and
 * the bidirectional marks, embeddings, overrides and isolates. Zero-width joiners stay allowed:
 * several Indian scripts need them to spell a name.
 */
export function isLayoutCharacter(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** Whether the text holds a character of isLayoutCharacter (all of them are single UTF-16 units). */
export function hasLayoutCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (isLayoutCharacter(text.charCodeAt(index))) return true;
  return false;
}

/** One line of plain text: what a name, a title or a subject may hold. */
export const isPlainLine = (text: string) => !hasLayoutCharacter(text);

/** A billing address prints as at most this many lines under the buyer's name. */
export const ADDRESS_MAX_LINES = 4;

/**
 * An address as typed into a text area: its lines (split at line feeds, a carriage return before
 * one included), each trimmed, blank ones left out. Another control character stays in its line
 * for isPlainLine to refuse.
 */
export function addressLines(address: string): string[] {
  return address
    .split('\n')
    .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line).trim())
    .filter((line) => line !== '');
}

// ── Invoice labels ──────────────────────────────────────────────────────────

/** A word made of digits only, as in "SAC 999293" or "Date 12 …". */
const NUMBER = Symbol('number');
type LabelWord = string | typeof NUMBER;

/**
 * What our invoices and credit notes print as labels, and the usual labels of an Indian tax
 * invoice, as words. None of them belongs in a buyer's name or address; words that may ("No." of a
 * house, "Date" of a palm grove, "GST Road", a firm named Invoice-something) are labels here only
 * with what makes them one.
 */
const LABELS: LabelWord[][] = [
  ['gstin'],
  ['gstn'],
  ['gst', 'no'],
  ['gst', 'number'],
  ['gst', 'reg'],
  ['gst', 'registration'],
  ['gst', 'in'],
  ['gst', 'id'],
  ['igst'],
  ['cgst'],
  ['sgst'],
  ['utgst'],
  ['hsn'],
  ['sac', NUMBER],
  ['sac', 'code'],
  ['tax', 'invoice'],
  ['invoice', 'no'],
  ['invoice', 'number'],
  ['invoice', 'num'],
  ['invoice', 'date'],
  ['invoice', 'id'],
  ['invoice', 'ref'],
  ['invoice', NUMBER],
  ['credit', 'note'],
  ['debit', 'note'],
  ['bill', 'of', 'supply'],
  ['receipt', 'no'],
  ['receipt', 'number'],
  ['place', 'of', 'supply'],
  ['taxable', 'value'],
  ['total', 'paid'],
  ['total', 'credited'],
  ['reverse', 'charge'],
  ['date', NUMBER],
];

/**
 * Letters that print like a Latin one in most fonts (Cyrillic, Greek), and digits that pass for a
 * letter: "GSТ1N" with a Cyrillic Т and a one reads as GSTIN on paper. Folded on both sides of the
 * comparison only; the text is kept as typed.
 */
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ӏ: 'i',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'h',
  ι: 'i',
  κ: 'k',
  μ: 'm',
  ν: 'n',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'y',
  χ: 'x',
  ϲ: 'c',
  ı: 'i',
  ɡ: 'g',
  '0': 'o',
  '1': 'i',
  l: 'i',
  '5': 's',
};
const fold = (word: string) => {
  let folded = '';
  for (const char of word) folded += LOOKALIKES[char] ?? char;
  return folded;
};
const FOLDED_LABELS = LABELS.map((label) => label.map((word) => (word === NUMBER ? NUMBER : fold(word))));

const isDigits = (word: string) => {
  for (let index = 0; index < word.length; index++) {
    const code = word.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return false;
  }
  return word.length > 0;
};

/**
 * The words of a text as a reader of the printed page sees them: compatibility forms folded
 * (full-width letters), accents and invisible format characters dropped, lower case; letters
 * spelt out one at a time ("G.S.T.I.N", "G S T I N") joined into one word.
 */
function wordsOf(text: string): string[] {
  const bare = text
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .toLowerCase();
  const words: string[] = [];
  let spelt = '';
  for (const [word] of bare.matchAll(/[\p{L}\p{N}]+/gu)) {
    if ([...word].length === 1) {
      spelt += word;
      continue;
    }
    if (spelt) words.push(spelt);
    spelt = '';
    words.push(word);
  }
  if (spelt) words.push(spelt);
  return words;
}

/**
 * Whether the text holds, anywhere, the words of an invoice label. Anywhere, not only at a line's
 * start: the PDF wraps a long line, so any word can begin a printed line.
 */
export function imitatesInvoiceLabel(text: string): boolean {
  const words = wordsOf(text);
  const folded = words.map(fold);
  for (let start = 0; start < words.length; start++) {
    for (const label of FOLDED_LABELS) {
      if (start + label.length > words.length) continue;
      if (label.every((word, offset) => (word === NUMBER ? isDigits(words[start + offset]!) : folded[start + offset] === word))) return true;
    }
  }
  return false;
}
