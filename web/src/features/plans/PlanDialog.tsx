import { messages } from '@lms/contract/messages';
import { MAX_PRICE, PLAN_INTERVALS, PlanInputSchema, PlanUpdateSchema, type AdminPlan, type PlanInterval, type PlanUpdate } from '@lms/contract/plans';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { FormField } from '../../lib/components/FormField';
import { Notice } from '../../lib/components/Notice';
import { ChoiceField, FormDialog } from './FormDialog';
import { useCreatePlanMutation, useUpdatePlanMutation } from './plans.api';
import { adminTexts, plansTexts as texts } from './plans-texts';

/** A blank text field counts as no number (the schema says what is missing), not as 0. */
const numberText = (text: string) => (text.trim() === '' ? Number.NaN : text.trim());

/** A new plan, or a plan's new name, price (a new version for new buyers) or free trial. */
export function PlanDialog({ plan, tax, onClose }: { plan?: AdminPlan; tax: { pricesAddTax: boolean; gstRate: number }; onClose: () => void }) {
  const [create, creating] = useCreatePlanMutation();
  const [update, updating] = useUpdatePlanMutation();
  const [form, setForm] = useState({
    name: plan?.name ?? '',
    interval: plan?.interval ?? ('monthly' as PlanInterval),
    price: plan ? String(plan.listPrice) : '',
    trialDays: String(plan?.trialDays ?? 0),
  });

  /** The server's own cap on what is charged, GST included: the entered price may pass the schema and still charge too much. */
  const chargesTooMuch = (price: number | undefined) =>
    price !== undefined && tax.pricesAddTax && Math.round(price * 100 * (1 + tax.gstRate / 100)) > MAX_PRICE * 100;

  async function onSubmit(): Promise<boolean> {
    const trialDays = form.trialDays.trim() === '' ? 0 : form.trialDays.trim();
    if (!plan) {
      const check = PlanInputSchema.safeParse({ name: form.name, interval: form.interval, price: numberText(form.price), trialDays });
      if (!check.success || chargesTooMuch(check.data.price)) {
        toast.error(check.success ? messages.planPriceWithTaxTooHigh : check.error.issues[0]!.message, { id: 'form-check' });
        return false;
      }
      return !(await create(check.data)).error;
    }
    // Only what changed: an unchanged price must not make a new price version.
    const changed: Record<string, unknown> = {
      ...(form.name.trim() !== plan.name && { name: form.name }),
      ...(Number(form.price.trim() || Number.NaN) !== plan.listPrice && { price: numberText(form.price) }),
      ...(Number(trialDays) !== plan.trialDays && { trialDays }),
    };
    const check = PlanUpdateSchema.safeParse(changed);
    if (!check.success || chargesTooMuch(check.data.price)) {
      toast.error(check.success ? messages.planPriceWithTaxTooHigh : check.error.issues[0]!.message, { id: 'form-check' });
      return false;
    }
    const body = Object.fromEntries(Object.entries(check.data).filter(([field]) => field in changed)) as PlanUpdate;
    return !(await update({ id: plan.id, update: body })).error;
  }

  return (
    <FormDialog
      title={plan ? texts.editTitle(plan.name) : texts.createTitle}
      submitLabel={plan ? adminTexts.saveChanges : texts.create}
      busy={creating.isLoading || updating.isLoading}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {plan?.default ? (
        // Its name is the one the storefront sells it by (the server refuses another).
        <div className="fieldset">
          <span className="fieldset-legend text-sm">{texts.name}</span>
          <p className="text-sm">{plan.name}</p>
          <p className="label whitespace-normal">{texts.defaultNameHint}</p>
        </div>
      ) : (
        <FormField
          label={texts.name}
          name="name"
          hint={texts.nameHint}
          maxLength={40}
          autoComplete="off"
          value={form.name}
          onChange={(event) => setForm({ ...form, name: event.target.value })}
        />
      )}
      {plan ? (
        <div className="fieldset">
          <span className="fieldset-legend text-sm">{texts.period}</span>
          <p className="text-sm">{texts.interval(plan.interval)}</p>
          <p className="label whitespace-normal">{texts.periodHint}</p>
        </div>
      ) : (
        <ChoiceField
          legend={texts.period}
          name="interval"
          options={PLAN_INTERVALS}
          labelOf={texts.interval}
          value={form.interval}
          onChange={(interval) => setForm({ ...form, interval })}
          hint={texts.periodHint}
        />
      )}
      <FormField
        label={texts.priceLabel}
        name="price"
        hint={texts.priceHint(tax.pricesAddTax)}
        inputMode="decimal"
        autoComplete="off"
        value={form.price}
        onChange={(event) => setForm({ ...form, price: event.target.value })}
      />
      {plan && (
        <div className="mt-1 mb-2">
          <Notice role="note">{texts.keepPrice(plan.subscribers)}</Notice>
        </div>
      )}
      <FormField
        label={texts.trialLabel}
        name="trialDays"
        hint={texts.trialHint}
        inputMode="numeric"
        autoComplete="off"
        value={form.trialDays}
        onChange={(event) => setForm({ ...form, trialDays: event.target.value })}
      />
    </FormDialog>
  );
}
