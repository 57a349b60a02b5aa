import { BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, Tooltip } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { messages } from '@lms/contract/messages';
import { useChartPalette } from './chart-palette';

// Only the pieces this chart draws, so the rest of chart.js is left out of the bundle.
ChartJS.register(BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/** Twelve monthly buckets, Jan to Dec. */
export const MONTH_LABELS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

interface Props {
  monthlySalesRecord: number[];
  /** The numbers are still on their way: a placeholder of the chart's size. */
  loading?: boolean;
}

/** The 'Sales / Month' bar chart, with the same numbers in a table for screen readers. */
export function SalesChart({ monthlySalesRecord, loading = false }: Props) {
  const sales = MONTH_LABELS.map((_, index) => monthlySalesRecord[index] ?? 0);
  const total = sales.reduce((sum, value) => sum + value, 0);
  const best = sales.indexOf(Math.max(...sales));
  const palette = useChartPalette();
  const summary = `${messages.salesPerMonth}, Jan to Dec: ${total} in all${total > 0 ? `, most in ${MONTH_LABELS[best]} (${sales[best]})` : ''}`;

  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-lg font-semibold">{messages.salesPerMonth}</figcaption>
      <div className="relative h-64 w-full sm:h-72">
        {loading ? (
          <div className="skeleton h-full w-full" role="status" aria-label={messages.chartLoading} />
        ) : (
          <Bar
            role="img"
            aria-label={summary}
            data={{ labels: [...MONTH_LABELS], datasets: [{ label: messages.salesPerMonth, data: sales, backgroundColor: palette.primary, borderRadius: 4 }] }}
            options={{
              responsive: true,
              maintainAspectRatio: false,
              plugins: { legend: { display: false } },
              scales: {
                x: { ticks: { color: palette.muted }, grid: { display: false }, border: { color: palette.grid } },
                y: { beginAtZero: true, ticks: { precision: 0, color: palette.muted }, grid: { color: palette.grid }, border: { display: false } },
              },
            }}
          />
        )}
      </div>
      {!loading && (
        <table className="sr-only">
          <caption>{messages.salesPerMonth}</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Sales</th>
            </tr>
          </thead>
          <tbody>
            {MONTH_LABELS.map((month, index) => (
              <tr key={month}>
                <th scope="row">{month}</th>
                <td>{sales[index]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
