import type { Coupon } from '@lms/contract/plans';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { AdminPageHeader } from '../../lib/components/AdminPageHeader';
import { PlusIcon } from '../../lib/components/icons';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { ListPending, RowActions, StatusBadge } from './ListParts';
import { CouponDialog } from './CouponDialog';
import { couponStatus, validityWords, type CouponStatus } from './coupon-validity';
import { useGetAdminPlansQuery, useGetCouponsQuery, useUpdateCouponMutation } from './plans.api';
import { adminTexts, couponsTexts as texts } from './plans-texts';

type Editing = Coupon | 'new' | null;

const TONES: Record<CouponStatus, 'success' | 'info' | 'muted'> = {
  active: 'success',
  scheduled: 'info',
  expired: 'muted',
  usedUp: 'muted',
  archived: 'muted',
};

/**
 * Admin only (the router guards it): the coupons given, each with its discount in
 * words, when it works, how often it was used, for which plans, and whether it is the save offer;
 * a new coupon, changes to when and how often it may be used, and archiving. Cards below `md`.
 */
export default function CouponsPage() {
  usePageTitle(texts.title);
  const query = useGetCouponsQuery();
  const plans = useGetAdminPlansQuery();
  const [editing, setEditing] = useState<Editing>(null);
  // Newest first (the server's order), archived ones after the rest.
  const coupons = [...(query.data?.coupons ?? [])].sort((a, b) => Number(a.archived) - Number(b.archived));
  const planNames = new Map((plans.data?.plans ?? []).map((plan) => [plan.id, plan.name]));
  const planWords = (coupon: Coupon) =>
    coupon.plans.length === 0 ? texts.allPlans : plans.data ? coupon.plans.map((id) => planNames.get(id) ?? texts.unknownPlan).join(', ') : '…';
  const saveOffer = coupons.find((coupon) => coupon.saveOffer);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminPageHeader
        title={texts.title}
        intro={texts.intro}
        actions={
          <>
            <Link to={paths.plans} className="btn btn-ghost">
              {texts.toPlans}
            </Link>
            <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
              <PlusIcon />
              {texts.newCoupon}
            </button>
          </>
        }
      />
      {query.data ? (
        coupons.length === 0 ? (
          <p className="rounded-box bg-base-200 p-6">{texts.empty}</p>
        ) : (
          <CouponList coupons={coupons} planWords={planWords} onEdit={setEditing} />
        )
      ) : (
        <ListPending failed={query.isError} texts={texts} rowHeight="h-24" />
      )}
      {editing && (
        <CouponDialog coupon={editing === 'new' ? undefined : editing} plans={plans.data?.plans} saveOffer={saveOffer} onClose={() => setEditing(null)} />
      )}
    </div>
  );
}

interface ListProps {
  coupons: Coupon[];
  planWords: (coupon: Coupon) => string;
  onEdit: (coupon: Coupon) => void;
}

function CouponList({ coupons, planWords, onEdit }: ListProps) {
  const now = Date.now();
  return (
    <>
      {/* Phones and tablets: a card per coupon. */}
      <ul aria-label={texts.listLabel} className="flex flex-col gap-4 lg:hidden">
        {coupons.map((coupon) => (
          <li key={coupon.id} className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
            <div className="flex items-start justify-between gap-3">
              <div className="flex min-w-0 flex-col items-start gap-1">
                <h2 className="font-mono text-lg font-semibold wrap-anywhere">{coupon.code}</h2>
                {coupon.saveOffer && <SaveOfferBadge />}
              </div>
              <CouponStatusBadge coupon={coupon} now={now} />
            </div>
            <p className="font-medium">{texts.discountWords(coupon)}</p>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
              <Detail label={texts.validity}>{validityWords(coupon)}</Detail>
              <Detail label={texts.redemptions}>{texts.used(coupon.redemptions, coupon.maxRedemptions)}</Detail>
              <Detail label={texts.plans} wide>
                {planWords(coupon)}
              </Detail>
            </dl>
            <CouponActions coupon={coupon} onEdit={onEdit} className="border-t border-base-300 pt-3" />
          </li>
        ))}
      </ul>

      {/* Wide screens: a table. */}
      <div className="hidden rounded-box border border-base-300 bg-base-100 lg:block">
        <table className="table [&_tbody_:is(td,th)]:align-top" aria-label={texts.listLabel}>
          <thead>
            <tr>
              <th scope="col">{texts.code}</th>
              <th scope="col">{texts.discount}</th>
              <th scope="col">{texts.validity}</th>
              <th scope="col">{texts.redemptions}</th>
              <th scope="col">{texts.plans}</th>
              <th scope="col">{adminTexts.status}</th>
              <th scope="col">
                <span className="sr-only">{adminTexts.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {coupons.map((coupon) => (
              <tr key={coupon.id}>
                <th scope="row">
                  <span className="block font-mono font-semibold whitespace-nowrap">{coupon.code}</span>
                  {coupon.saveOffer && <SaveOfferBadge />}
                </th>
                <td className="max-w-56">{texts.discountWords(coupon)}</td>
                <td className="max-w-48">{validityWords(coupon)}</td>
                <td className="whitespace-nowrap tabular-nums">{texts.used(coupon.redemptions, coupon.maxRedemptions)}</td>
                <td className="max-w-48 wrap-anywhere">{planWords(coupon)}</td>
                <td>
                  <CouponStatusBadge coupon={coupon} now={now} />
                </td>
                <td>
                  <CouponActions coupon={coupon} onEdit={onEdit} className="-mt-1.5" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Detail({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={`flex min-w-0 flex-col ${wide ? 'col-span-2' : ''}`}>
      <dt className="text-base-content/80">{label}</dt>
      <dd className="wrap-anywhere">{children}</dd>
    </div>
  );
}

function SaveOfferBadge() {
  return <span className="badge badge-sm badge-outline whitespace-nowrap">{texts.saveOffer}</span>;
}

function CouponStatusBadge({ coupon, now }: { coupon: Coupon; now: number }) {
  const status = couponStatus(coupon, now);
  return <StatusBadge tone={TONES[status]}>{texts.status[status]}</StatusBadge>;
}

function CouponActions({ coupon, onEdit, className = '' }: { coupon: Coupon; onEdit: (coupon: Coupon) => void; className?: string }) {
  const [update, updating] = useUpdateCouponMutation();
  return (
    <RowActions
      name={coupon.code}
      archived={coupon.archived}
      busy={updating.isLoading}
      onEdit={() => onEdit(coupon)}
      onToggle={() => void update({ id: coupon.id, update: { archived: !coupon.archived } })}
      className={className}
    />
  );
}
