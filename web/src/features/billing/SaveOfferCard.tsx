import type { SaveOffer } from '@lms/contract/payments';
import { useId } from 'react';
import { useAcceptSaveOfferMutation } from './billing.api';
import { billingTexts } from './billing-texts';

/**
 * In the cancel dialog: the discount a subscriber may take instead of cancelling,
 * above the cancel choices, with its one primary button. Taking it toasts the server's word and
 * `onTaken` closes the dialog; the billing history (its renewal line) is read again either way.
 */
export function SaveOfferCard({ offer, onTaken }: { offer: NonNullable<SaveOffer>; onTaken: () => void }) {
  const titleId = useId();
  const [accept, accepting] = useAcceptSaveOfferMutation();

  async function take() {
    // The client shows the server's message: the acceptance, or why there is no offer after all.
    const taken = await accept()
      .unwrap()
      .catch(() => undefined);
    if (taken) onTaken();
  }

  return (
    <section aria-labelledby={titleId} className="mt-4 flex flex-col gap-3 rounded-box bg-base-200 p-4 ring-1 ring-primary/40">
      <div className="flex items-start gap-3">
        <svg
          viewBox="0 0 24 24"
          width="24"
          height="24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          className="mt-0.5 shrink-0 text-primary"
          aria-hidden="true"
        >
          <path d="M20 12v9H4v-9M2 7h20v5H2zM12 21V7" strokeLinejoin="round" />
          <path d="M12 7H7.5a2.5 2.5 0 1 1 0-5C11 2 12 7 12 7zM12 7h4.5a2.5 2.5 0 1 0 0-5C13 2 12 7 12 7z" strokeLinejoin="round" />
        </svg>
        <div className="min-w-0">
          <h3 id={titleId} className="text-sm font-medium text-base-content/80">
            {billingTexts.offerTitle}
          </h3>
          <p className="text-lg leading-snug font-semibold">{billingTexts.offer(offer.discount, offer.discountedPrice, offer.regularPrice)}</p>
          <p className="mt-1 text-sm text-base-content/80">{billingTexts.offerAfter(offer.regularPrice, offer.interval)}</p>
        </div>
      </div>
      <button type="button" className="btn btn-primary w-full" onClick={() => void take()} disabled={accepting.isLoading} aria-busy={accepting.isLoading}>
        {accepting.isLoading && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {billingTexts.takeOffer}
      </button>
    </section>
  );
}
