/** One line of the results table: a figure, what it is compared with, and its budget, as the section sets it. */
export interface Measurement {
  what: string;
  /** The figure as measured, with its unit. */
  measured: string;
  /** The reference run in the same bench, when there is one. */
  reference?: string;
  /** measured ÷ reference (throughput) — the number a budget in percent is judged on. */
  ratio?: number;
  budget?: string;
  /** Whether the budget is met; undefined when the figure has none. */
  met?: boolean;
}

export interface SectionResult {
  title: string;
  rows: Measurement[];
  /** Details worth keeping with the figures: query plans, per-file sizes, what was skipped and why. */
  notes?: string[];
}

const cell = (text: string | undefined) => (text ?? '').replace(/\|/g, '\\|');
const verdict = (met: boolean | undefined) => (met === undefined ? '' : met ? 'met' : '**missed**');

export function sectionMarkdown(section: SectionResult): string {
  const lines = [
    `## ${section.title}`,
    '',
    '| what | measured | reference | ratio | budget | |',
    '|---|---|---|---|---|---|',
    ...section.rows.map((row) =>
      [
        '',
        cell(row.what),
        cell(row.measured),
        cell(row.reference),
        row.ratio === undefined ? '' : `${(row.ratio * 100).toFixed(0)} %`,
        cell(row.budget),
        verdict(row.met),
        '',
      ]
        .join(' | ')
        .trim(),
    ),
  ];
  if (section.notes?.length) lines.push('', ...section.notes);
  return lines.join('\n');
}

/** Every budgeted figure of a run in one table, and how many were missed. */
export function budgetTable(sections: SectionResult[]): { markdown: string; missed: number } {
  const judged = sections.flatMap((section) => section.rows.filter((row) => row.met !== undefined).map((row) => ({ section: section.title, row })));
  const missed = judged.filter(({ row }) => !row.met).length;
  const markdown = [
    `## Budgets: ${judged.length - missed} of ${judged.length} met`,
    '',
    '| section | what | measured | ratio | budget | |',
    '|---|---|---|---|---|---|',
    ...judged.map(({ section, row }) =>
      [
        '',
        cell(section),
        cell(row.what),
        cell(row.measured),
        row.ratio === undefined ? '' : `${(row.ratio * 100).toFixed(0)} %`,
        cell(row.budget),
        verdict(row.met),
        '',
      ]
        .join(' | ')
        .trim(),
    ),
  ].join('\n');
  return { markdown, missed };
}

// Number formats used across the tables.
export const thousands = (n: number) => Math.round(n).toLocaleString('en-US');
export const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The value `p` % of `values` are at or below (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
