import type { AdminPlan } from '@lms/contract/plans';
import { useState } from 'react';
import { formatDate, rupees } from '../../lib/format';
import { Link } from 'react-router';
import { AdminPageHeader } from '../../lib/components/AdminPageHeader';
import { PlusIcon } from '../../lib/components/icons';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { ListPending, RowActions, StatusBadge } from './ListParts';
import { PlanDialog } from './PlanDialog';
import { useGetAdminPlansQuery, useUpdatePlanMutation } from './plans.api';
import { adminTexts, plansTexts as texts } from './plans-texts';

type Editing = AdminPlan | 'new' | null;

/**
 * Admin only (the router guards it): the plans sold, each with its price, free trial,
 * subscribers and price history; a new plan, a rename, a new price for new buyers, a trial, and
 * taking a plan off sale or back. Cards on a phone, a table from `md`.
 */
export default function PlansPage() {
  usePageTitle(texts.title);
  const query = useGetAdminPlansQuery();
  const [editing, setEditing] = useState<Editing>(null);
  // On sale first (in the server's order: the default, then monthly before yearly), archived after.
  const plans = [...(query.data?.plans ?? [])].sort((a, b) => Number(a.archived) - Number(b.archived));
  // Prices entered before GST (PRICES_INCLUDE_TAX=no): a charge above the list price.
  const tax = query.data?.tax ?? { pricesAddTax: false, gstRate: 0 };

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminPageHeader
        title={texts.title}
        intro={texts.intro}
        actions={
          <>
            <Link to={paths.coupons} className="btn btn-ghost">
              {texts.toCoupons}
            </Link>
            <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
              <PlusIcon />
              {texts.newPlan}
            </button>
          </>
        }
      />
      {query.data ? <PlanList plans={plans} onEdit={setEditing} /> : <ListPending failed={query.isError} texts={texts} rowHeight="h-28" />}
      {editing && <PlanDialog plan={editing === 'new' ? undefined : editing} tax={tax} onClose={() => setEditing(null)} />}
    </div>
  );
}

function PlanList({ plans, onEdit }: { plans: AdminPlan[]; onEdit: (plan: AdminPlan) => void }) {
  return (
    <>
      {/* Phones: a card per plan. */}
      <ul aria-label={texts.listLabel} className="flex flex-col gap-4 md:hidden">
        {plans.map((plan) => (
          <li key={plan.id} className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <h2 className="text-lg font-semibold wrap-anywhere">{plan.name}</h2>
                <p className="text-sm text-base-content/80">
                  {texts.interval(plan.interval)} · {texts.trialLine(plan.trialDays)}
                </p>
              </div>
              <PlanStatus plan={plan} />
            </div>
            <dl className="grid grid-cols-2 gap-3">
              <div className="flex min-w-0 flex-col gap-0.5">
                <dt className="text-sm text-base-content/80">{texts.price}</dt>
                <dd>
                  <Price plan={plan} />
                </dd>
              </div>
              <div className="flex min-w-0 flex-col gap-0.5">
                <dt className="text-sm text-base-content/80">{texts.subscribers}</dt>
                <dd className="font-semibold tabular-nums">{plan.subscribers.toLocaleString('en-IN')}</dd>
              </div>
            </dl>
            <PriceHistory plan={plan} />
            <PlanActions plan={plan} onEdit={onEdit} className="border-t border-base-300 pt-3" />
          </li>
        ))}
      </ul>

      {/* From md: a table. */}
      <div className="hidden rounded-box border border-base-300 bg-base-100 md:block">
        <table className="table [&_tbody_:is(td,th)]:align-top" aria-label={texts.listLabel}>
          <thead>
            <tr>
              <th scope="col">{texts.plan}</th>
              <th scope="col">{texts.price}</th>
              <th scope="col">{texts.trial}</th>
              <th scope="col" className="text-right">
                {texts.subscribers}
              </th>
              <th scope="col">{adminTexts.status}</th>
              <th scope="col">
                <span className="sr-only">{adminTexts.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {plans.map((plan) => (
              <tr key={plan.id}>
                <th scope="row" className="max-w-64 font-normal">
                  <span className="block font-semibold wrap-anywhere">{plan.name}</span>
                  <span className="text-sm text-base-content/80">{texts.interval(plan.interval)}</span>
                </th>
                <td>
                  <Price plan={plan} />
                  <PriceHistory plan={plan} />
                </td>
                <td className="whitespace-nowrap">{texts.trialDays(plan.trialDays)}</td>
                <td className="text-right font-semibold tabular-nums">{plan.subscribers.toLocaleString('en-IN')}</td>
                <td>
                  <PlanStatus plan={plan} />
                </td>
                <td>
                  <PlanActions plan={plan} onEdit={onEdit} className="-mt-1.5" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function PlanStatus({ plan }: { plan: AdminPlan }) {
  return (
    <div className="flex flex-col items-end gap-1 md:items-start">
      <StatusBadge tone={plan.archived ? 'muted' : 'success'}>{plan.archived ? texts.archived : texts.onSale}</StatusBadge>
      {plan.default && <span className="badge badge-sm badge-outline whitespace-nowrap">{texts.defaultPlan}</span>}
    </div>
  );
}

function Price({ plan }: { plan: AdminPlan }) {
  return (
    <span className="flex flex-col">
      <span className="font-semibold whitespace-nowrap tabular-nums">{texts.perPeriod(plan.price, plan.interval)}</span>
      {plan.listPrice !== plan.price && <span className="text-sm text-base-content/80 tabular-nums">{texts.beforeGst(plan.listPrice)}</span>}
      {plan.prices.length < 2 && (
        <span className="text-sm text-base-content/80">{texts.priceSince(formatDate(plan.prices[0]?.since ?? plan.createdAt) ?? '')}</span>
      )}
    </span>
  );
}

/** Every price the plan has had, newest first, with who pays each (a single price shows its date beside it instead). */
function PriceHistory({ plan }: { plan: AdminPlan }) {
  if (plan.prices.length < 2) return null;
  return (
    <details className="group mt-1 text-sm">
      <summary className="flex w-fit cursor-pointer list-none items-center gap-1 rounded-field text-base-content/80 hover:text-base-content">
        {texts.history(plan.prices.length)}
        <svg
          viewBox="0 0 24 24"
          width="14"
          height="14"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          className="transition-transform group-open:rotate-180"
          aria-hidden="true"
        >
          <path d="m6 9 6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </summary>
      <ol aria-label={texts.historyLabel(plan.name)} className="mt-2 flex flex-col gap-2 border-s-2 border-base-300 ps-3">
        {plan.prices.map((version) => (
          <li key={`${version.since}-${version.price}`} className="flex flex-col">
            <span className="flex flex-wrap items-center gap-x-2">
              <span className="font-semibold tabular-nums">{rupees.format(version.price)}</span>
              {version.current && <span className="badge badge-xs badge-outline">{texts.current}</span>}
            </span>
            <span className="text-base-content/80">
              {texts.priceSince(formatDate(version.since) ?? '')} · {texts.subscriberCount(version.subscribers)}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Edit, and take off sale or bring back: quiet, as the page's primary action is a new plan. */
function PlanActions({ plan, onEdit, className = '' }: { plan: AdminPlan; onEdit: (plan: AdminPlan) => void; className?: string }) {
  const [update, updating] = useUpdatePlanMutation();
  return (
    <RowActions
      name={plan.name}
      archived={plan.archived}
      busy={updating.isLoading}
      onEdit={() => onEdit(plan)}
      // The default plan is the bundle the storefront sells: it stays on sale (the server refuses too).
      onToggle={plan.default ? undefined : () => void update({ id: plan.id, update: { archived: !plan.archived } })}
      className={className}
    />
  );
}
