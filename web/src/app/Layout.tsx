import { useEffect, useId, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { Footer } from '../components/Footer';
import { logout, refreshUser } from '../features/auth/auth.api';
import { paths } from './paths';
import { useAppDispatch, useAppSelector } from './store';

/** The side menu of spec §2, by role and login state, around every page, with the footer. */
export function Layout() {
  const drawerId = useId();
  const toggle = useRef<HTMLInputElement>(null);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const { isLoggedIn, role } = useAppSelector((state) => state.auth);

  // Spec §4: the stored login state is refreshed by the 'me' call on load.
  useEffect(() => {
    if (isLoggedIn) dispatch(refreshUser()).catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Close the menu after navigating.
  useEffect(() => {
    if (toggle.current) toggle.current.checked = false;
  }, [location.pathname]);

  async function onLogout() {
    await dispatch(logout()).catch(() => undefined);
    navigate(paths.home);
  }

  return (
    <div className="drawer">
      {/* daisyUI's drawer: a checkbox (focusable, toggled with Space) and labels that click it. */}
      <input id={drawerId} ref={toggle} type="checkbox" className="drawer-toggle" />
      <div className="drawer-content flex min-h-screen flex-col">
        <header className="navbar bg-base-100 shadow-sm">
          <label htmlFor={drawerId} className="btn btn-ghost btn-square drawer-button">
            <span className="sr-only">Open the menu</span>
            <svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </label>
          <Link to={paths.home} className="btn btn-ghost text-xl">
            LMS
          </Link>
        </header>
        <main id="main" className="flex-1">
          <Outlet />
        </main>
        <Footer />
      </div>
      <div className="drawer-side z-20">
        <label htmlFor={drawerId} className="drawer-overlay" aria-hidden="true" />
        <nav aria-label="Main" className="flex min-h-full w-72 flex-col bg-base-200 p-4">
          <ul className="menu w-full gap-1 text-base">
            <li><NavLink to={paths.home} end>Home</NavLink></li>
            {isLoggedIn && role === 'ADMIN' && (
              <>
                <li><NavLink to={paths.dashboard}>Admin Dashboard</NavLink></li>
                <li><NavLink to={paths.createCourse}>Create Course</NavLink></li>
              </>
            )}
            <li><NavLink to={paths.courses}>All Courses</NavLink></li>
            <li><NavLink to={paths.contact}>Contact us</NavLink></li>
            <li><NavLink to={paths.about}>About</NavLink></li>
          </ul>
          <div className="mt-auto flex gap-2 pt-4">
            {isLoggedIn ? (
              <>
                <Link to={paths.profile} className="btn btn-primary flex-1">Profile</Link>
                <button type="button" className="btn btn-secondary flex-1" onClick={onLogout}>Logout</button>
              </>
            ) : (
              <>
                <Link to={paths.login} className="btn btn-primary flex-1">Login</Link>
                <Link to={paths.signup} className="btn btn-secondary flex-1">Signup</Link>
              </>
            )}
          </div>
        </nav>
      </div>
    </div>
  );
}
