import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { BrowserRouter, Link, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useLeaveBlocker } from './use-leave-blocker';

/** A page that holds leaving while its box is ticked, with the question's two answers. */
function Guarded() {
  const [busy, setBusy] = useState(false);
  const blocker = useLeaveBlocker(() => busy);
  return (
    <>
      <h1>Upload</h1>
      <label>
        <input type="checkbox" checked={busy} onChange={(event) => setBusy(event.target.checked)} />
        Busy
      </label>
      <Link to="/elsewhere">Elsewhere</Link>
      {blocker.state === 'blocked' && (
        <div role="dialog" aria-label="Leave?">
          <button type="button" onClick={blocker.reset}>
            Stay
          </button>
          <button type="button" onClick={blocker.proceed}>
            Leave
          </button>
        </div>
      )}
    </>
  );
}

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderInBrowser() {
  window.history.replaceState(null, '', '/start');
  const user = userEvent.setup();
  render(
    <BrowserRouter>
      <Routes>
        <Route path="/start" element={<Link to="/upload">Upload</Link>} />
        <Route path="/upload" element={<Guarded />} />
        <Route path="*" element={<h1>Elsewhere</h1>} />
      </Routes>
      <Where />
    </BrowserRouter>,
  );
  return user;
}

const where = () => screen.getByTestId('where').textContent;

describe('useLeaveBlocker, under the browser router the app runs in', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('lets the user go when nothing holds them', async () => {
    const user = renderInBrowser();
    await user.click(screen.getByRole('link', { name: 'Upload' }));
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks before a link leaves: Stay keeps the page, Leave goes where the link led', async () => {
    const user = renderInBrowser();
    await user.click(screen.getByRole('link', { name: 'Upload' }));
    await user.click(screen.getByRole('checkbox', { name: 'Busy' }));
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await user.click(await screen.findByRole('button', { name: 'Stay' }));
    expect(where()).toBe('/upload');
    expect(window.location.pathname).toBe('/upload');

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/elsewhere');
  });

  it("asks before the browser's Back leaves, keeping the page and its address until the user chooses to go", async () => {
    const user = renderInBrowser();
    await user.click(screen.getByRole('link', { name: 'Upload' }));
    await user.click(screen.getByRole('checkbox', { name: 'Busy' }));

    act(() => window.history.back());
    await user.click(await screen.findByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(window.location.pathname).toBe('/upload'));
    expect(where()).toBe('/upload');
    expect(screen.getByRole('checkbox', { name: 'Busy' })).toBeChecked();

    act(() => window.history.back());
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(where()).toBe('/start'));
    expect(window.location.pathname).toBe('/start');
  });
});
