import { messages } from '@lms/contract/messages';
import { useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../app/api';
import { paths } from '../../app/paths';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { unsubscribe } from './auth.api';

export default function ProfilePage() {
  const user = useAppSelector((state) => state.auth.data);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const confirmDialog = useRef<HTMLDialogElement>(null);
  const confirmTitleId = useId();
  const [busy, setBusy] = useState(false);

  // The route guard lets only logged-in users here, and a logged-in state always holds the user.
  if (!user) return null;
  const active = user.subscription.status === 'active';

  async function onConfirmCancel() {
    setBusy(true);
    try {
      await dispatch(unsubscribe());
      confirmDialog.current?.close();
      // Spec §4: cancelling, then reloading the user, returns to the home page.
      navigate(paths.home);
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!(error instanceof ApiError)) throw error;
      setBusy(false);
      confirmDialog.current?.close();
    }
  }

  return (
    <section className="flex justify-center px-4 py-8">
      <div className="card w-full max-w-md bg-base-100 shadow-xl">
        <div className="card-body items-center gap-4 p-5 text-center sm:p-8">
          <div className="avatar">
            <div className="w-32 rounded-full ring-2 ring-primary ring-offset-2 ring-offset-base-100">
              <img src={user.avatar.secure_url} alt={user.fullName} />
            </div>
          </div>
          <h1 className="card-title text-2xl break-all">{user.fullName}</h1>
          <dl className="grid w-full grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-left">
            <dt className="font-semibold">Email</dt>
            <dd className="break-all">{user.email}</dd>
            <dt className="font-semibold">Role</dt>
            <dd>{user.role}</dd>
            <dt className="font-semibold">Subscription</dt>
            <dd>
              <span className={`badge ${active ? 'badge-success' : 'badge-neutral'}`}>{active ? 'Active' : 'Inactive'}</span>
            </dd>
          </dl>
          <div className="grid w-full grid-cols-1 gap-2 sm:grid-cols-2">
            <Link to={paths.changePassword} className="btn btn-primary">
              Change password
            </Link>
            <Link to={paths.editProfile} className="btn btn-secondary">
              Edit profile
            </Link>
          </div>
          {active && (
            <button type="button" className="btn btn-error btn-outline w-full" onClick={() => confirmDialog.current?.showModal()}>
              {messages.cancelSubscription}
            </button>
          )}
        </div>
      </div>

      <dialog ref={confirmDialog} className="modal modal-bottom sm:modal-middle" aria-labelledby={confirmTitleId}>
        <div className="modal-box">
          <h2 id={confirmTitleId} className="text-lg font-bold">
            {messages.cancelSubscription}?
          </h2>
          <p className="py-4">Your access to the courses ends at once. Do you want to cancel your subscription?</p>
          <div className="modal-action">
            <button type="button" className="btn" onClick={() => confirmDialog.current?.close()} disabled={busy}>
              Keep it
            </button>
            <button type="button" className="btn btn-error" onClick={onConfirmCancel} disabled={busy} aria-busy={busy}>
              {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              Yes, cancel
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
