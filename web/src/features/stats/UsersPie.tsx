import { ArcElement, Chart as ChartJS, Legend, Tooltip } from 'chart.js';
import { Pie } from 'react-chartjs-2';
import { messages } from '@lms/contract/messages';

// Only the pieces this chart draws, so the rest of chart.js is left out of the bundle.
ChartJS.register(ArcElement, Tooltip, Legend);

interface Props {
  allUsersCount: number;
  subscribedCount: number;
}

/** Spec §2: the 'User Details' pie, registered against enrolled users. */
export function UsersPie({ allUsersCount, subscribedCount }: Props) {
  const labels = [messages.registeredUser, messages.enrolledUser];
  const counts = [allUsersCount, subscribedCount];
  const summary = `${messages.userDetails}: ${labels.map((label, index) => `${label} ${counts[index]}`).join(', ')}`;

  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-lg font-semibold">{messages.userDetails}</figcaption>
      <div className="relative mx-auto aspect-square w-full max-w-64">
        <Pie
          role="img"
          aria-label={summary}
          data={{
            labels,
            datasets: [{ label: messages.userDetails, data: counts, backgroundColor: ['#eab308', '#16a34a'], borderColor: ['#a16207', '#15803d'], borderWidth: 1 }],
          }}
          options={{ responsive: true, maintainAspectRatio: false, plugins: { legend: { position: 'bottom' } } }}
        />
      </div>
    </figure>
  );
}
