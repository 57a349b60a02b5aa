const count = new Intl.NumberFormat('en-IN');

export const paginationTexts = {
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, pages: number) => `Page ${count.format(page)} of ${count.format(pages)}`,
} as const;

/** Previous / "Page 2 of 7" / Next under an admin's list; `label` names what is paged ("Pages of certificates"). */
export function Pagination({ label, page, pages, onPage }: { label: string; page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3">
      <button type="button" className="btn btn-outline btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <span aria-hidden="true">‹</span>
        {paginationTexts.previous}
      </button>
      <span className="text-sm tabular-nums">{paginationTexts.pageOf(page, pages)}</span>
      <button type="button" className="btn btn-outline btn-sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {paginationTexts.next}
        <span aria-hidden="true">›</span>
      </button>
    </nav>
  );
}
