/** Line icons drawn in the text's colour, hidden from screen readers: the words beside them say it. */

const stroke = { viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export function PlusIcon({ size = 18 }: { size?: number }) {
  return (
    <svg {...stroke} width={size} height={size} aria-hidden="true">
      <path d="M12 5v14M5 12h14" />
    </svg>
  );
}

export function DownloadIcon({ size = 16 }: { size?: number }) {
  return (
    <svg {...stroke} width={size} height={size} aria-hidden="true">
      <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
    </svg>
  );
}
