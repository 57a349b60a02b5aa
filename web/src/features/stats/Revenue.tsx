import { endpoints } from '@lms/contract/endpoints';
import type { Revenue as RevenueFigures, RevenueExportQuery } from '@lms/contract/stats';
import { BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, Tooltip } from 'chart.js';
import { useId, useState } from 'react';
import { Bar } from 'react-chartjs-2';
import { Link } from 'react-router';
import { API_ROOT, urlFor } from '../../lib/api-client';
import { formatDate, rupees } from '../../lib/format';
import { paths } from '../../lib/paths';
import { useChartPalette } from './chart-palette';
import { MrrByPlan } from './MrrByPlan';
import { MONTH_LABELS } from './SalesChart';

ChartJS.register(BarElement, CategoryScale, LinearScale, Tooltip, Legend);

const countFormat = new Intl.NumberFormat('en-IN');
/** `2026-11` → "Nov ’26" (never "Nov 26", which reads as a day). */
const monthLabel = (month: string) => `${MONTH_LABELS[Number(month.slice(5, 7)) - 1]} ’${month.slice(2, 4)}`;
const monthInFull = new Intl.DateTimeFormat('en-IN', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The section's words, with it rather than in the catalogue (which ships with every page's first chunk). */
export const texts = {
  heading: 'Revenue',
  manage: 'Plans and coupons',
  plans: 'Plans',
  coupons: 'Coupons',
  hint: (month: string) => `${monthInFull.format(new Date(`${month}-01T00:00:00Z`))} so far, in India's calendar.`,
  mrr: 'Monthly recurring revenue',
  mrrHint: (renewing: number) => `${countFormat.format(renewing)} ${renewing === 1 ? 'subscription' : 'subscriptions'} renewing`,
  active: 'Active subscribers',
  newThisMonth: 'New this month',
  cancelledThisMonth: 'Cancelled this month',
  churn: 'Churn rate',
  churnHint: (active: number) => `of ${countFormat.format(active)} active when the month began`,
  refunds: 'Refunds this month',
  refundsHint: (count: number) => `${countFormat.format(count)} ${count === 1 ? 'refund' : 'refunds'}`,
  net: 'Net revenue this month',
  netHint: (gross: string) => `${gross} paid, less refunds`,
  chart: 'New vs cancelled subscribers, last 12 months',
  newSeries: 'New',
  cancelledSeries: 'Cancelled',
  payments: 'Latest payments',
  date: 'Date',
  payer: 'Subscriber',
  amount: 'Amount',
  status: 'Status',
  documents: 'Documents',
  paid: 'Paid',
  refunded: 'Refunded',
  noPayments: 'No payments yet.',
  preparing: 'Preparing…',
  exportHeading: 'Export for your accountant',
  exportHint: 'A CSV of the payments, or of the invoices and credit notes, issued between two days (at most 400).',
  from: 'From',
  to: 'To',
  exportPayments: 'Payments CSV',
  exportDocuments: 'Invoices CSV',
  loading: 'Loading revenue…',
  failed: 'Revenue figures could not be loaded.',
};

/** Today and the start of the financial year (1 April) in India, as `YYYY-MM-DD`. */
function financialYearToDate(now = new Date()): { from: string; to: string } {
  const to = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Kolkata' }).format(now);
  const [year, month] = to.split('-').map(Number) as [number, number];
  return { from: `${month >= 4 ? year : year - 1}-04-01`, to };
}

/**
 * The subscription business beside the spec's figures — MRR, subscribers, churn,
 * refunds and net revenue this month; new against cancelled subscribers over a year; the latest
 * payments with their invoices; and the accountant's CSV. Decision 0016 defines each figure.
 */
export function Revenue({ data, status }: { data: RevenueFigures | undefined; status: 'loading' | 'ready' | 'failed' }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-2xl font-semibold">
            {texts.heading}
          </h2>
          {data && <p className="text-sm text-base-content/70">{texts.hint(data.month)}</p>}
        </div>
        {/* What is sold and the discounts given; quiet, beside the figures they shape. */}
        <nav aria-label={texts.manage} className="flex gap-2">
          <Link to={paths.plans} className="btn btn-outline btn-sm">
            {texts.plans}
          </Link>
          <Link to={paths.coupons} className="btn btn-outline btn-sm">
            {texts.coupons}
          </Link>
        </nav>
      </div>
      {status !== 'ready' || !data ? (
        <p className="rounded-box bg-base-200 p-6 text-base-content/70" aria-live="polite">
          {status === 'failed' ? texts.failed : texts.loading}
        </p>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Figure label={texts.mrr} value={rupees.format(data.mrr)} hint={texts.mrrHint(data.renewingSubscribers)} />
            <Figure label={texts.active} value={countFormat.format(data.activeSubscribers)} />
            <Figure label={texts.newThisMonth} value={countFormat.format(data.newSubscribers)} />
            <Figure label={texts.cancelledThisMonth} value={countFormat.format(data.cancellations)} />
            <Figure label={texts.churn} value={data.churnRate === null ? '—' : `${data.churnRate} %`} hint={texts.churnHint(data.activeAtMonthStart)} />
            <Figure label={texts.refunds} value={rupees.format(data.refunds.amount)} hint={texts.refundsHint(data.refunds.count)} />
            <Figure label={texts.net} value={rupees.format(data.netRevenue)} hint={texts.netHint(rupees.format(data.grossRevenue))} />
          </dl>
          <MrrByPlan plans={data.plans} />
          <div className="grid gap-6 lg:grid-cols-2">
            <NewVsCancelled months={data.months} />
            <ExportForm />
          </div>
          <LatestPayments payments={data.payments} />
        </>
      )}
    </section>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-box bg-base-200 p-3 sm:p-4">
      <dt className="text-sm font-medium text-base-content/80">{label}</dt>
      <dd className="text-xl font-bold tabular-nums wrap-anywhere sm:text-2xl">{value}</dd>
      {hint && <dd className="text-sm text-base-content/70">{hint}</dd>}
    </div>
  );
}

function NewVsCancelled({ months }: { months: RevenueFigures['months'] }) {
  const palette = useChartPalette();
  const labels = months.map((row) => monthLabel(row.month));
  const joined = months.reduce((sum, row) => sum + row.newSubscribers, 0);
  const left = months.reduce((sum, row) => sum + row.cancellations, 0);
  return (
    <figure className="flex min-w-0 flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
      <figcaption className="text-lg font-semibold">{texts.chart}</figcaption>
      <div className="relative h-64 w-full">
        <Bar
          role="img"
          aria-label={`${texts.chart}: ${joined} new, ${left} cancelled`}
          data={{
            labels,
            datasets: [
              { label: texts.newSeries, data: months.map((row) => row.newSubscribers), backgroundColor: palette.primary, borderRadius: 4 },
              { label: texts.cancelledSeries, data: months.map((row) => row.cancellations), backgroundColor: palette.secondary, borderRadius: 4 },
            ],
          }}
          options={{
            responsive: true,
            maintainAspectRatio: false,
            plugins: { legend: { labels: { color: palette.text } } },
            scales: {
              x: { ticks: { color: palette.muted }, grid: { display: false }, border: { color: palette.grid } },
              y: { beginAtZero: true, ticks: { precision: 0, color: palette.muted }, grid: { color: palette.grid }, border: { display: false } },
            },
          }}
        />
      </div>
      <table className="sr-only">
        <caption>{texts.chart}</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">{texts.newSeries}</th>
            <th scope="col">{texts.cancelledSeries}</th>
          </tr>
        </thead>
        <tbody>
          {months.map((row, index) => (
            <tr key={row.month}>
              <th scope="row">{labels[index]}</th>
              <td>{row.newSubscribers}</td>
              <td>{row.cancellations}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** Two days and two downloads: plain links, so the browser saves the CSV the server streams. */
function ExportForm() {
  const [range, setRange] = useState(financialYearToDate);
  const fromId = useId();
  const toId = useId();
  const link = (kind: RevenueExportQuery['kind']) => API_ROOT + urlFor(endpoints.stats.revenueExport, { query: { kind, ...range } });
  const valid = range.from !== '' && range.to !== '' && range.from <= range.to;
  return (
    <div className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
      <h3 className="text-lg font-semibold">{texts.exportHeading}</h3>
      <p className="text-sm text-base-content/70">{texts.exportHint}</p>
      <div className="grid grid-cols-1 gap-3 min-[26rem]:grid-cols-2">
        <div className="fieldset">
          <label htmlFor={fromId} className="fieldset-legend text-sm">
            {texts.from}
          </label>
          <input
            id={fromId}
            type="date"
            className="input w-full"
            value={range.from}
            max={range.to}
            onChange={(event) => setRange({ ...range, from: event.target.value })}
          />
        </div>
        <div className="fieldset">
          <label htmlFor={toId} className="fieldset-legend text-sm">
            {texts.to}
          </label>
          <input
            id={toId}
            type="date"
            className="input w-full"
            value={range.to}
            min={range.from}
            onChange={(event) => setRange({ ...range, to: event.target.value })}
          />
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        {(['payments', 'documents'] as const).map((kind) =>
          valid ? (
            <a key={kind} className="btn btn-outline btn-sm" href={link(kind)} download>
              {kind === 'payments' ? texts.exportPayments : texts.exportDocuments}
            </a>
          ) : (
            <button key={kind} type="button" className="btn btn-outline btn-sm" disabled>
              {kind === 'payments' ? texts.exportPayments : texts.exportDocuments}
            </button>
          ),
        )}
      </div>
    </div>
  );
}

function LatestPayments({ payments }: { payments: RevenueFigures['payments'] }) {
  const headingId = useId();
  return (
    <div className="flex flex-col gap-2">
      <h3 id={headingId} className="text-lg font-semibold">
        {texts.payments}
      </h3>
      {payments.length === 0 ? (
        <p className="rounded-box bg-base-200 p-4">{texts.noPayments}</p>
      ) : (
        <div className="overflow-x-auto rounded-box border border-base-300">
          <table className="table" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">{texts.date}</th>
                <th scope="col">{texts.payer}</th>
                <th scope="col" className="text-right">
                  {texts.amount}
                </th>
                <th scope="col">{texts.status}</th>
                <th scope="col">{texts.documents}</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((payment) => (
                <tr key={payment.id}>
                  <td className="whitespace-nowrap tabular-nums">{formatDate(payment.date)}</td>
                  <td className="max-w-64">
                    <span className="block font-medium wrap-anywhere">{payment.fullName}</span>
                    <span className="text-sm text-base-content/70 wrap-anywhere">{payment.email}</span>
                  </td>
                  <td className="text-right tabular-nums">{rupees.format(payment.amount)}</td>
                  <td>{payment.status === 'refunded' ? texts.refunded : texts.paid}</td>
                  <td>
                    <div className="flex flex-col gap-1">
                      {[payment.invoice, payment.creditNote].map((document) =>
                        document ? (
                          document.ready ? (
                            <a
                              key={document.id}
                              className="link font-mono text-sm whitespace-nowrap"
                              href={API_ROOT + urlFor(endpoints.billing.document, { params: { id: document.id } })}
                              download
                            >
                              {document.number}
                            </a>
                          ) : (
                            <span key={document.id} className="font-mono text-sm whitespace-nowrap text-base-content/70">
                              {document.number} · {texts.preparing}
                            </span>
                          )
                        ) : null,
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
