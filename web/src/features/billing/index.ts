/** The profile's billing: the section, and the cancel dialog's terms and save offer. */
export { BillingSection } from './BillingSection';
export { CancelTerms } from './CancelTerms';
export { SaveOfferCard } from './SaveOfferCard';
export { billingTexts } from './billing-texts';
export { useGetSaveOfferQuery } from './billing.api';
