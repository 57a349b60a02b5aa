import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { messages } from '@lms/contract/messages';
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { Footer } from '../lib/components/Footer';
import { BrandMark } from '../lib/components/inline-pictures';
import { NEXT_PARAM, withNext } from '../lib/with-next';
import { paths } from '../lib/paths';
import { useSite } from '../lib/site';
import { useAppDispatch, useAppSelector } from './store';

// Only for a signed-in user on a desktop: not in every visitor's first download, which has a budget of 110 KB.

const AccountMenu = lazy(() => import('./AccountMenu').then((module) => ({ default: module.AccountMenu })));

/** The session's calls, with the server-state cache they go through: loaded for a signed-in user, or on Logout, never for a visitor's first page. */
const session = () => import('../features/auth/auth.api');

/** The spec's menu items, by role: the side menu and the desktop bar show the same. */
function menuItems(isAdmin: boolean) {
  return [
    { to: paths.home, label: 'Home', end: true },
    ...(isAdmin
      ? [
          { to: paths.dashboard, label: 'Admin Dashboard' },
          { to: paths.createCourse, label: 'Create Course' },
          // Ours, beside the spec's admin items.
          { to: paths.settings, label: 'Site settings' },
          { to: paths.trace, label: 'Leak trace' },
        ]
      : []),
    { to: paths.courses, label: 'All Courses' },
    { to: paths.contact, label: 'Contact us' },
    { to: paths.about, label: 'About' },
  ];
}

/** Pages after which logging in should not come back: home is the default, the forms themselves would loop. */
const NO_RETURN: string[] = [paths.home, paths.login, paths.signup, paths.forgotPassword, paths.checkoutSuccess, paths.checkoutFail];

/**
 * The spec's side menu, by role and login state, around every page, with the footer; from
 * 1024 px (`lg`) a top bar with the same items instead, and the account's avatar menu or Login and
 * Signup at its right. A user who must first choose a new password (the initial administrator) is
 * kept on the change-password page: every other path leads back there, and only Logout is offered.
 */
export function Layout() {
  const drawerId = useId();
  const toggle = useRef<HTMLInputElement>(null);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const { isLoggedIn, role, data } = useAppSelector((state) => state.auth);
  const mustChangePassword = isLoggedIn && data?.mustChangePassword === true;
  const items = menuItems(isLoggedIn && role === 'ADMIN');
  // Login and Signup from a page bring the visitor back to it; from login or signup, to where those lead.
  const onForm = location.pathname === paths.login || location.pathname === paths.signup;
  const next = onForm
    ? (new URLSearchParams(location.search).get(NEXT_PARAM) ?? undefined)
    : NO_RETURN.includes(location.pathname)
      ? undefined
      : `${location.pathname}${location.search}`;

  // The stored login state is refreshed by the 'me' call on load: the role or subscription may have changed elsewhere.
  useEffect(() => {
    if (isLoggedIn)
      session()
        .then(({ refreshUser }) => dispatch(refreshUser()))
        .catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // The side menu closes when one of its items is chosen, and on Back or Forward; not when a page
  // arrives: the address changes at once while the next page's code loads, and a menu opened in
  // that moment must stay open.
  const closeMenu = () => {
    if (toggle.current) toggle.current.checked = false;
  };
  useEffect(() => {
    window.addEventListener('popstate', closeMenu);
    return () => window.removeEventListener('popstate', closeMenu);
  }, []);

  async function onLogout() {
    await session()
      .then(({ logout }) => dispatch(logout()))
      .catch(() => undefined);
    void navigate(paths.home);
  }

  const logoutButton = (className: string) => (
    <button type="button" className={className} onClick={() => void onLogout()}>
      Logout
    </button>
  );

  return (
    <div className="drawer">
      {/* daisyUI's drawer: a checkbox (focusable, toggled with Space) and labels that click it. Phones and tablets only. */}
      <input id={drawerId} ref={toggle} type="checkbox" className="drawer-toggle lg:hidden" />
      <div className="drawer-content flex min-h-page flex-col">
        <a href="#main" className="btn btn-sm btn-primary absolute left-2 top-2 z-40 -translate-y-20 focus:translate-y-0">
          {messages.skipToContent}
        </a>
        <header className="navbar min-h-16 gap-2 bg-base-100 px-2 shadow-sm lg:px-6">
          <div className="flex flex-1 items-center gap-1 lg:flex-none">
            <label htmlFor={drawerId} className="btn btn-ghost btn-square drawer-button lg:hidden">
              <span className="sr-only">Open the menu</span>
              <svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <path d="M4 6h16M4 12h16M4 18h16" />
              </svg>
            </label>
            <Link to={mustChangePassword ? paths.changePassword : paths.home} className="btn btn-ghost min-w-0 gap-2 px-2 text-xl">
              <Brand />
            </Link>
          </div>
          {/* The desktop bar: the side menu's items in a row (a Main navigation of its own would repeat the landmark's name). */}
          {!mustChangePassword && (
            <nav aria-label="Site" className="hidden flex-1 justify-center lg:flex">
              <ul className="flex items-center gap-1">
                {items.map((item) => (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      end={item.end}
                      className={({ isActive }) => `btn btn-ghost px-2.5 font-medium whitespace-nowrap xl:px-4 ${isActive ? 'bg-primary/10 text-primary' : ''}`}
                    >
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <div className="hidden items-center justify-end gap-2 lg:ml-auto lg:flex">
            {mustChangePassword ? (
              logoutButton('btn btn-ghost')
            ) : isLoggedIn && data ? (
              // Its place held at the button's size while it loads, so the bar does not move.
              <Suspense fallback={<span className="size-10" />}>
                <AccountMenu user={data} onLogout={() => void onLogout()} />
              </Suspense>
            ) : (
              <>
                <Link to={withNext(paths.login, next)} className="btn btn-ghost">
                  Login
                </Link>
                <Link to={withNext(paths.signup, next)} className="btn btn-outline btn-primary">
                  Signup
                </Link>
              </>
            )}
          </div>
        </header>
        <main id="main" className="flex-1">
          {mustChangePassword && location.pathname !== paths.changePassword ? <Navigate to={paths.changePassword} replace /> : <Outlet />}
        </main>
        <Footer />
      </div>
      <div className="drawer-side z-20 lg:hidden">
        <label htmlFor={drawerId} className="drawer-overlay" aria-hidden="true" />
        <nav
          aria-label="Main"
          className="flex min-h-full w-72 flex-col bg-base-200 p-4"
          onClick={(event) => {
            if (event.target instanceof Element && event.target.closest('a, button')) closeMenu();
          }}
        >
          {mustChangePassword ? (
            <p className="px-2 py-1 text-base-content/80">{messages.choosePasswordToContinue}</p>
          ) : (
            <ul className="menu w-full gap-1 text-base">
              {items.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.end} className={({ isActive }) => (isActive ? 'bg-primary/10 font-semibold text-primary' : '')}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          )}
          <div className="mt-auto flex gap-2 pt-4">
            {isLoggedIn ? (
              <>
                {!mustChangePassword && (
                  <Link to={paths.profile} className="btn btn-outline btn-primary flex-1">
                    Profile
                  </Link>
                )}
                {logoutButton('btn btn-ghost flex-1')}
              </>
            ) : (
              <>
                <Link to={withNext(paths.login, next)} className="btn btn-primary flex-1">
                  Login
                </Link>
                <Link to={withNext(paths.signup, next)} className="btn btn-outline btn-primary flex-1">
                  Signup
                </Link>
              </>
            )}
          </div>
        </nav>
      </div>
    </div>
  );
}

/**
 * The site's mark in the bar: a wide logo (a wordmark, twice as wide as high or more) alone, named by
 * its text alternative; a squarer logo with the site's name beside it; no logo, the product's icon and
 * the site's name, as a fresh site has always shown.
 */
function Brand() {
  const { name, logo } = useSite();
  const wordmark = logo !== null && logo.width >= 2 * logo.height;
  return (
    <>
      {logo ? (
        <img
          src={logo.url}
          width={logo.width}
          height={logo.height}
          alt={wordmark ? name : ''}
          className={`h-8 w-auto shrink-0 object-contain ${wordmark ? 'max-w-48' : 'max-w-12'}`}
        />
      ) : (
        <BrandMark />
      )}
      {!wordmark && <span className="truncate">{name}</span>}
    </>
  );
}
