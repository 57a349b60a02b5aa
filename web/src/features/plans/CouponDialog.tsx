import { messages } from '@lms/contract/messages';
import { COUPON_KINDS, CouponInputSchema, CouponUpdateSchema, type AdminPlan, type Coupon, type CouponKind, type CouponUpdate } from '@lms/contract/plans';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { FormField } from '../../lib/components/FormField';
import { dayOfEnd, dayOfStart, endOfDay, startOfDay } from './coupon-validity';
import { ChoiceField, FormDialog } from './FormDialog';
import { useCreateCouponMutation, useUpdateCouponMutation } from './plans.api';
import { adminTexts, couponsTexts as texts, plansTexts } from './plans-texts';

interface DialogProps {
  coupon?: Coupon;
  /** Every plan, for the plans it is for; undefined while they load. */
  plans: AdminPlan[] | undefined;
  /** The coupon that is the save offer now, if any. */
  saveOffer: Coupon | undefined;
  onClose: () => void;
}

/** Blank is none: the schema takes null for "no limit" and "no date". */
const blankToNull = (text: string) => (text.trim() === '' ? null : text.trim());
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));

/** A new coupon, or the parts of one that may change: when, how often, for which plans, and the save offer. */
export function CouponDialog({ coupon, plans, saveOffer, onClose }: DialogProps) {
  const [create, creating] = useCreateCouponMutation();
  const [update, updating] = useUpdateCouponMutation();
  const initial = {
    code: coupon?.code ?? '',
    kind: coupon?.kind ?? ('percent' as CouponKind),
    amount: coupon ? String(coupon.amount) : '',
    charges: String(coupon?.charges ?? 1),
    validFrom: coupon?.validFrom ? dayOfStart(coupon.validFrom) : '',
    validUntil: coupon?.validUntil ? dayOfEnd(coupon.validUntil) : '',
    maxRedemptions: coupon?.maxRedemptions === null || !coupon ? '' : String(coupon.maxRedemptions),
    plans: coupon?.plans ?? [],
    saveOffer: coupon?.saveOffer ?? false,
  };
  const [form, setForm] = useState(initial);
  const datesHintId = useId();
  const saveOfferHintId = useId();
  const saveOfferLabelId = useId();
  const plansHintId = useId();
  // Plans on sale, and any archived one the coupon is already for (so it is not dropped unseen).
  const choices = (plans ?? []).filter((plan) => !plan.archived || form.plans.includes(plan.id));
  const otherSaveOffer = saveOffer && saveOffer.id !== coupon?.id ? saveOffer : undefined;

  const fail = (message: string) => {
    toast.error(message, { id: 'form-check' });
    return false;
  };

  async function onSubmit(): Promise<boolean> {
    const dates = {
      validFrom: form.validFrom ? startOfDay(form.validFrom) : null,
      validUntil: form.validUntil ? endOfDay(form.validUntil) : null,
    };
    // Whole days: one day (from = until) is a valid span; the schema compares the moments.
    if (form.validFrom && form.validUntil && form.validFrom > form.validUntil) return fail(messages.couponDatesInvalid);
    if (!coupon) {
      const check = CouponInputSchema.safeParse({
        code: form.code,
        kind: form.kind,
        amount: form.amount.trim() === '' ? Number.NaN : form.amount.trim(),
        charges: form.charges.trim() === '' ? undefined : form.charges.trim(),
        ...dates,
        maxRedemptions: blankToNull(form.maxRedemptions),
        plans: form.plans,
        saveOffer: form.saveOffer,
      });
      if (!check.success) return fail(check.error.issues[0]!.message);
      return !(await create(check.data)).error;
    }
    // Only what changed, so that a date left alone is not rounded to the day.
    const changed: Record<string, unknown> = {
      ...(form.validFrom !== initial.validFrom && { validFrom: dates.validFrom }),
      ...(form.validUntil !== initial.validUntil && { validUntil: dates.validUntil }),
      ...(form.maxRedemptions.trim() !== initial.maxRedemptions && { maxRedemptions: blankToNull(form.maxRedemptions) }),
      ...(!sameSet(form.plans, initial.plans) && { plans: form.plans }),
      ...(form.saveOffer !== initial.saveOffer && { saveOffer: form.saveOffer }),
    };
    const check = CouponUpdateSchema.safeParse(changed);
    if (!check.success) return fail(check.error.issues[0]!.message);
    // The server refuses a limit below the uses already taken, in words about the number's form: say why here.
    if (check.data.maxRedemptions != null && check.data.maxRedemptions < coupon.redemptions) return fail(texts.maxBelowUsed(coupon.redemptions));
    const body = Object.fromEntries(Object.entries(check.data).filter(([field]) => field in changed)) as CouponUpdate;
    return !(await update({ id: coupon.id, update: body })).error;
  }

  const togglePlan = (id: string, on: boolean) => setForm({ ...form, plans: on ? [...form.plans, id] : form.plans.filter((planId) => planId !== id) });

  return (
    <FormDialog
      title={coupon ? texts.editTitle(coupon.code) : texts.createTitle}
      submitLabel={coupon ? adminTexts.saveChanges : texts.create}
      busy={creating.isLoading || updating.isLoading}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {coupon ? (
        <p className="mb-2 rounded-box bg-base-200 p-3 text-sm">
          <span className="block font-medium">{texts.discountWords(coupon)}</span>
          <span className="text-base-content/80">{texts.fixed}</span>
        </p>
      ) : (
        <>
          <FormField
            label={texts.codeLabel}
            name="code"
            hint={texts.codeHint}
            maxLength={20}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            className="font-mono uppercase"
            value={form.code}
            onChange={(event) => setForm({ ...form, code: event.target.value.toUpperCase() })}
          />
          <ChoiceField
            legend={texts.kind}
            name="kind"
            options={COUPON_KINDS}
            labelOf={(kind) => (kind === 'percent' ? texts.percent : texts.amount)}
            value={form.kind}
            onChange={(kind) => setForm({ ...form, kind })}
          />
          <div className="grid gap-x-4 min-[26rem]:grid-cols-2">
            <FormField
              label={form.kind === 'percent' ? texts.percentLabel : texts.amountLabel}
              name="amount"
              hint={form.kind === 'percent' ? texts.percentHint : texts.amountHint}
              inputMode={form.kind === 'percent' ? 'numeric' : 'decimal'}
              autoComplete="off"
              value={form.amount}
              onChange={(event) => setForm({ ...form, amount: event.target.value })}
            />
            <FormField
              label={texts.charges}
              name="charges"
              hint={texts.chargesHint}
              inputMode="numeric"
              autoComplete="off"
              value={form.charges}
              onChange={(event) => setForm({ ...form, charges: event.target.value })}
            />
          </div>
        </>
      )}
      <div className="grid gap-x-4 text-xs min-[26rem]:grid-cols-2">
        <FormField
          label={texts.validFrom}
          name="validFrom"
          type="date"
          aria-describedby={datesHintId}
          value={form.validFrom}
          max={form.validUntil || undefined}
          onChange={(event) => setForm({ ...form, validFrom: event.target.value })}
        />
        <FormField
          label={texts.validUntil}
          name="validUntil"
          type="date"
          aria-describedby={datesHintId}
          value={form.validUntil}
          min={form.validFrom || undefined}
          onChange={(event) => setForm({ ...form, validUntil: event.target.value })}
        />
        <p id={datesHintId} className="label whitespace-normal min-[26rem]:col-span-2">
          {texts.datesHint}
        </p>
      </div>
      <FormField
        label={texts.max}
        name="maxRedemptions"
        hint={texts.maxHint}
        inputMode="numeric"
        autoComplete="off"
        value={form.maxRedemptions}
        onChange={(event) => setForm({ ...form, maxRedemptions: event.target.value })}
      />
      <fieldset className="fieldset" aria-describedby={plansHintId}>
        <legend className="fieldset-legend text-sm">{texts.plansLegend}</legend>
        {plans ? (
          <div className="flex flex-col gap-1">
            {choices.map((plan) => (
              <label key={plan.id} className="flex cursor-pointer items-start gap-3 py-1 text-sm">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={form.plans.includes(plan.id)}
                  onChange={(event) => togglePlan(plan.id, event.target.checked)}
                />
                <span className="min-w-0 wrap-anywhere">
                  {plan.name}{' '}
                  <span className="text-base-content/80">
                    · {plansTexts.perPeriod(plan.price, plan.interval)}
                    {plan.archived && ` · ${texts.archivedPlan}`}
                  </span>
                </span>
              </label>
            ))}
          </div>
        ) : (
          <p className="text-sm text-base-content/80">{texts.plansLoading}</p>
        )}
        <p id={plansHintId} className="label whitespace-normal">
          {texts.plansHint}
        </p>
      </fieldset>
      <fieldset className="fieldset">
        <legend className="sr-only">{texts.saveOfferLabel}</legend>
        <label className="flex cursor-pointer items-start gap-3 py-1 text-sm">
          <input
            type="checkbox"
            name="saveOffer"
            className="checkbox checkbox-sm"
            aria-labelledby={saveOfferLabelId}
            aria-describedby={saveOfferHintId}
            checked={form.saveOffer}
            onChange={(event) => setForm({ ...form, saveOffer: event.target.checked })}
          />
          <span className="flex flex-col gap-0.5">
            <span id={saveOfferLabelId} className="font-medium">
              {texts.saveOfferLabel}
            </span>
            <span id={saveOfferHintId} className="text-base-content/80">
              {texts.saveOfferHint}
              {form.saveOffer && otherSaveOffer && ` ${texts.replacesSaveOffer(otherSaveOffer.code)}`}
            </span>
          </span>
        </label>
      </fieldset>
    </FormDialog>
  );
}
