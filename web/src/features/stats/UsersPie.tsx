import { ArcElement, Chart as ChartJS, Legend, Tooltip } from 'chart.js';
import type { ReactNode } from 'react';
import { Pie } from 'react-chartjs-2';
import { messages } from '@lms/contract/messages';
import { useChartPalette } from './chart-palette';

// Only the pieces this chart draws, so the rest of chart.js is left out of the bundle.
ChartJS.register(ArcElement, Tooltip, Legend);

interface Props {
  allUsersCount: number;
  subscribedCount: number;
  /** The numbers are still on their way: a placeholder of the pie's size. */
  loading?: boolean;
}

/** The 'User Details' pie, registered against enrolled users. */
export function UsersPie({ allUsersCount, subscribedCount, loading = false }: Props) {
  const labels = [messages.registeredUser, messages.enrolledUser];
  const counts = [allUsersCount, subscribedCount];
  const palette = useChartPalette();
  const empty = allUsersCount === 0 && subscribedCount === 0;
  const summary = `${messages.userDetails}: ${labels.map((label, index) => `${label} ${counts[index]}`).join(', ')}`;

  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-lg font-semibold">{messages.userDetails}</figcaption>
      <div className="relative mx-auto aspect-square w-full max-w-72">
        {loading ? (
          <Placeholder>
            <div className="skeleton aspect-square h-full rounded-full" role="status" aria-label={messages.chartLoading} />
          </Placeholder>
        ) : empty ? (
          // chart.js draws nothing for two zeros (and a legend of nothing): an empty ring says so instead.
          <Placeholder>
            <p className="flex aspect-square h-full items-center justify-center rounded-full border-[1.75rem] border-base-300 p-2 text-center text-sm text-base-content/80">
              {messages.noUsersYet}
            </p>
          </Placeholder>
        ) : (
          <Pie
            role="img"
            aria-label={summary}
            data={{
              labels,
              datasets: [
                {
                  label: messages.userDetails,
                  data: counts,
                  backgroundColor: [palette.primary, palette.secondary],
                  borderColor: palette.surface,
                  borderWidth: 2,
                },
              ],
            }}
            options={{
              responsive: true,
              maintainAspectRatio: false,
              plugins: {
                legend: { position: 'bottom', labels: { color: palette.text, font: { size: 13 }, usePointStyle: true, pointStyle: 'circle', padding: 16 } },
              },
            }}
          />
        )}
      </div>
    </figure>
  );
}

/** Where the pie would be, the legend's height left below: what stands in for it keeps its size. */
function Placeholder({ children }: { children: ReactNode }) {
  return <div className="absolute inset-x-0 top-0 bottom-11 flex justify-center">{children}</div>;
}
