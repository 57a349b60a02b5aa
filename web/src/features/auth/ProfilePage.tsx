import { messages } from '@lms/contract/messages';
import { CANCEL_NOTE_MAX, CANCEL_REASONS, type CancelReason } from '@lms/contract/payments';
import { useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { isServerError } from '../../lib/server-state';
import { ContinueWatching } from '../progress';
import { SignedInDevices } from '../sessions';
import { CertificatesCard } from '../certificates';
import { formatDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { useAppDispatch } from '../../lib/store-hooks';
import { useAuth } from './auth.slice';
import { Notice } from '../../lib/components/Notice';
import { useGetSaveOfferQuery } from '../billing';
import { BillingSection } from '../billing';
import { CancelTerms } from '../billing';
import { SaveOfferCard } from '../billing';
import { billingTexts } from '../billing';
import { refreshUser, unsubscribe } from './auth.api';

/** A label of the profile's list: above its value on a phone, beside it from `sm` up. */
const label = 'font-semibold max-sm:mt-3 max-sm:first:mt-0';

export default function ProfilePage() {
  const user = useAuth((auth) => auth.data);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const confirmDialog = useRef<HTMLDialogElement>(null);
  const confirmTitleId = useId();
  const [busy, setBusy] = useState(false);
  // While the cancel dialog is open, the save offer it may show (asked each time it opens).
  const [confirmOpen, setConfirmOpen] = useState(false);
  const saveOffer = useGetSaveOfferQuery(undefined, { skip: !confirmOpen, refetchOnMountOrArgChange: true });
  const offer = confirmOpen && !saveOffer.isFetching ? saveOffer.data?.offer : undefined;
  // Why they cancel, if they say.
  const [reason, setReason] = useState<CancelReason | ''>('');
  const [note, setNote] = useState('');
  const noteId = useId();
  // The server's word on a cancellation that kept access (it says why nothing was refunded).
  const [notice, setNotice] = useState('');
  usePageTitle(messages.profileTitle);

  // The route guard lets only logged-in users here, and a logged-in state always holds the user.
  if (!user) return null;
  const { subscription } = user;
  const active = subscription.status === 'active';
  // Granted by an administrator: no payment, nothing renews or can be cancelled; subscribing stays open for after.
  const complimentary = active && subscription.complimentary === true;
  // Cancelled without a refund, it stays active until the paid period ends.
  const ending = active && !complimentary && subscription.cancelAtPeriodEnd === true;
  const periodEnd = active ? formatDate(subscription.currentPeriodEnd) : undefined;
  // In a free trial the first payment is what comes next.
  const trialEnds = active ? formatDate(subscription.trialEndsAt) : undefined;

  // Browsers say `close` for Escape and the backdrop too (onClose below); jsdom does not, so the buttons say it here as well.
  function closeConfirm() {
    confirmDialog.current?.close();
    setConfirmOpen(false);
  }

  function onOfferTaken() {
    closeConfirm();
    // The next payments are discounted: the billing history reads again (the mutation says so); the user too.
    void dispatch(refreshUser()).catch(() => undefined);
  }

  async function onConfirmCancel() {
    setBusy(true);
    let answer: Awaited<ReturnType<ReturnType<typeof unsubscribe>>>;
    try {
      answer = await dispatch(unsubscribe({ ...(reason && { reason }), ...(note.trim() && { note: note.trim() }) }));
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!isServerError(error)) throw error;
      setBusy(false);
      closeConfirm();
      return;
    }
    closeConfirm();
    setBusy(false);
    if (!answer.stillActive) {
      // Cancelling, then reloading the user, returns to the home page.
      if (answer.message) toast.success(answer.message, { duration: answer.refunded ? undefined : 6000 });
      void navigate(paths.home);
      return;
    }
    // Not refunded: access lasts to the period's end, which this page now shows.
    setNotice(answer.message);
  }

  return (
    // One column for the card and the sections below it: the same width and the same edges.
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-10 px-4 py-8">
      <div className="card bg-base-100 shadow-xl">
        {/* Phones and tablets: one centred column. From lg: the picture, then who they are, then what they can do. */}
        <div className="card-body items-center gap-6 p-5 text-center sm:p-8 lg:flex-row lg:items-start lg:text-left">
          <div className="avatar shrink-0">
            <div className="w-32 rounded-full ring-2 ring-primary ring-offset-2 ring-offset-base-100">
              <img src={user.avatar.secure_url} alt={user.fullName} />
            </div>
          </div>
          <div className="flex w-full max-w-md min-w-0 flex-col gap-4 lg:max-w-none lg:flex-1">
            <h1 className="card-title justify-center text-2xl wrap-anywhere lg:justify-start">{user.fullName}</h1>
            {/* Phones: each label above its value, so a long email keeps the card's width instead of a narrow column. */}
            <dl className="grid w-full grid-cols-1 gap-x-4 text-left sm:grid-cols-[auto_1fr] sm:gap-y-2">
              <dt className={label}>Email</dt>
              <dd className="wrap-anywhere">{user.email}</dd>
              {/* The spec shows the role; in words people use, not the code the server keeps. */}
              <dt className={label}>Role</dt>
              <dd>{messages.roleNames[user.role]}</dd>
              <dt className={label}>Subscription</dt>
              <dd>
                <span className={`badge ${active ? 'badge-success' : 'badge-neutral'}`}>
                  {complimentary ? billingTexts.complimentary : active ? 'Active' : 'Inactive'}
                </span>
              </dd>
              {periodEnd && (
                <dd className="mt-1 text-sm text-base-content/80 sm:col-start-2 sm:-mt-1">
                  {complimentary
                    ? billingTexts.complimentaryUntil(periodEnd)
                    : ending
                      ? messages.cancelledAccessUntil(periodEnd)
                      : trialEnds
                        ? billingTexts.trialFirstPayment(trialEnds)
                        : messages.renewsOn(periodEnd)}
                </dd>
              )}
            </dl>
            {notice && <Notice role="status">{notice}</Notice>}
          </div>
          <div className="grid w-full max-w-md grid-cols-1 gap-2 sm:grid-cols-2 lg:w-60 lg:shrink-0 lg:grid-cols-1">
            {ending && (
              <Link to={paths.checkout} className="btn btn-primary sm:col-span-2 lg:col-span-1">
                {messages.resumeSubscription}
              </Link>
            )}
            {complimentary && user.role === 'USER' && (
              <Link to={paths.checkout} className="btn btn-primary sm:col-span-2 lg:col-span-1">
                {billingTexts.subscribe}
              </Link>
            )}
            <Link to={paths.changePassword} className="btn btn-outline">
              Change password
            </Link>
            <Link to={paths.editProfile} className="btn btn-outline">
              Edit profile
            </Link>
            {active && !ending && !complimentary && (
              <button
                type="button"
                className="btn btn-error btn-outline sm:col-span-2 lg:col-span-1"
                onClick={() => {
                  setConfirmOpen(true);
                  confirmDialog.current?.showModal();
                }}
              >
                {messages.cancelSubscription}
              </button>
            )}
          </div>
        </div>
      </div>

      {/* Its heading as the billing section's below it: two sections of one page. */}
      <ContinueWatching limit={100} showEmpty className="w-full" headingClassName="text-xl font-semibold" />

      {user.role === 'USER' && <CertificatesCard className="w-full" />}

      {/* Payments, invoices and tax details; administrators buy nothing. */}
      {user.role === 'USER' && <BillingSection className="w-full" />}

      {/* Every browser signed in to the account, and signing them out. */}
      <SignedInDevices className="w-full" />

      <dialog ref={confirmDialog} className="modal modal-bottom sm:modal-middle" aria-labelledby={confirmTitleId} onClose={() => setConfirmOpen(false)}>
        <div className="modal-box">
          <h2 id={confirmTitleId} className="text-lg font-bold">
            {messages.cancelSubscription}?
          </h2>
          {offer && <SaveOfferCard offer={offer} onTaken={onOfferTaken} />}
          {/* The case of the refund rule that applies to this subscriber, in the server's words. */}
          <CancelTerms open={confirmOpen} trialEnds={trialEnds} periodEnd={periodEnd} />
          <fieldset className="fieldset">
            <legend className="fieldset-legend text-sm">{billingTexts.whyLeaving}</legend>
            <p className="label mb-1 whitespace-normal">{billingTexts.whyLeavingHint}</p>
            {Object.entries(CANCEL_REASONS).map(([value, text]) => (
              <label key={value} className="flex cursor-pointer items-center gap-3 py-1">
                <input
                  type="radio"
                  name="reason"
                  className="radio radio-sm"
                  value={value}
                  checked={reason === value}
                  onChange={() => setReason(value as CancelReason)}
                />
                <span>{text}</span>
              </label>
            ))}
            <label htmlFor={noteId} className="fieldset-legend mt-2 text-sm">
              {billingTexts.noteLabel}
            </label>
            <textarea
              id={noteId}
              className="textarea w-full"
              rows={2}
              maxLength={CANCEL_NOTE_MAX}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
          </fieldset>
          <div className="modal-action">
            <button type="button" className="btn" onClick={closeConfirm} disabled={busy}>
              {messages.keepSubscription}
            </button>
            {/* With an offer to take instead, cancelling is the quiet choice; still red, as it ends something. */}
            <button
              type="button"
              className={`btn btn-error ${offer ? 'btn-outline' : ''}`}
              onClick={() => void onConfirmCancel()}
              disabled={busy}
              aria-busy={busy}
            >
              {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {messages.confirmCancel}
            </button>
          </div>
        </div>
        {/* A click outside the box closes the dialog, as Escape does. */}
        <form method="dialog" className="modal-backdrop">
          <button disabled={busy}>Close</button>
        </form>
      </dialog>
    </section>
  );
}
