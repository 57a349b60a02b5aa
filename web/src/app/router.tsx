import { lazy, Suspense, type ComponentType } from 'react';
import { matchRoutes, Outlet, useRoutes, type RouteObject } from 'react-router';
import { RouteErrorBoundary } from './ErrorPage';
import { Layout } from './Layout';
import { PageFallback } from './PageFallback';
import { paths } from '../lib/paths';
import { RequireAuth } from './RequireAuth';
import type { AppStore } from './store';

/** A page's component, whose chunk may be loaded before it first renders. */
type PageComponent = ComponentType & { preload(store?: AppStore): Promise<void> };

/**
 * A page's module: the page, and what it starts before its first render when it is the page the
 * browser opened (its HTML carries the reads it starts from).
 */
interface PageModule {
  default: ComponentType;
  /** Its promise holds the first render back until it settles. */
  beforeFirstRender?: (store: AppStore) => void | Promise<void>;
}

/**
 * Each page is its own chunk, loaded when first visited: a visitor of `/` downloads only the home page.
 * A page whose chunk has loaded (`preload`, or an earlier visit) renders at once, without suspending.
 */
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'Component'> => {
  let Loaded: ComponentType | undefined;
  const loading = () =>
    load().then((module) => {
      Loaded = module.default;
      return module;
    });
  const Lazy = lazy(loading);
  const Page = () => (Loaded ? <Loaded /> : <Lazy />);
  const preload = (store?: AppStore) =>
    loading().then((module) => {
      if (store) return module.beforeFirstRender?.(store);
    });
  return { Component: Object.assign(Page, { preload }) };
};

/**
 * Loads the chunks of the page at `pathname`, for a first render that shows it at once. React reveals
 * content that takes a fallback's place no sooner than 300 ms after the fallback showed: a first page
 * whose chunk arrives with the entry (its HTML names it) is shown that much sooner when the first
 * render waits for it than when it suspends (main.tsx). With `store`, the page the browser opened
 * then starts what it can before that render (`beforeFirstRender`), and the render waits for what it answers.
 */
export function preloadPage(pathname: string, store?: AppStore): Promise<void> {
  const matched = matchRoutes(routes, pathname) ?? [];
  return Promise.all(matched.map(({ route }) => (route.Component as Partial<PageComponent> | undefined)?.preload?.(store))).then(() => undefined);
}

/*
 * The routes are plain elements and components, rendered by `useRoutes` under a `BrowserRouter`
 * (main.tsx): no loaders, no actions, so React Router's data router (about 15 KB of Brotli in every
 * visitor's first download) is not needed. A page's chunk suspends its place, which shows the page
 * fallback until it arrives: the router moves outside a transition (main.tsx), so the address and
 * the page shown never disagree.
 */

export const routes: RouteObject[] = [
  {
    element: (
      <RouteErrorBoundary>
        <Layout />
      </RouteErrorBoundary>
    ),
    children: [
      {
        // The first page's chunk is still on its way: the layout paints now, this fills its place.
        element: (
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        ),
        children: [
          { path: paths.home, ...page(() => import('../features/home/HomePage')) },
          { path: paths.about, ...page(() => import('../features/about/AboutPage')) },
          { path: paths.contact, ...page(() => import('../features/contact/ContactPage')) },
          { path: paths.terms, ...page(() => import('../features/legal/TermsPage')) },
          { path: paths.privacy, ...page(() => import('../features/legal/PrivacyPage')) },
          { path: paths.refundPolicy, ...page(() => import('../features/legal/RefundPolicyPage')) },
          { path: paths.login, ...page(() => import('../features/auth/LoginPage')) },
          { path: paths.signup, ...page(() => import('../features/auth/SignupPage')) },
          { path: paths.forgotPassword, ...page(() => import('../features/auth/ForgotPasswordPage')) },
          { path: paths.resetPassword, ...page(() => import('../features/auth/ResetPasswordPage')) },
          { path: paths.signInLink, ...page(() => import('../features/auth/SignInLinkPage')) },
          { path: paths.confirmEmail, ...page(() => import('../features/email-change/ConfirmEmailPage')) },
          { path: paths.denied, ...page(() => import('../features/errors/DeniedPage')) },
          { path: paths.courses, ...page(() => import('../features/courses/CourseListPage')) },
          { path: paths.courseDescription, ...page(() => import('../features/courses/CourseDescriptionPage')) },
          // No role guard; the page and the server refuse what the viewer may not see.
          { path: paths.courseLecture, ...page(() => import('../features/lectures/LecturePage')) },
          // Signed-in learners; the page asks a visitor to log in (keeping the quiz's address) and the server refuses the rest.
          { path: paths.quiz, ...page(() => import('../features/quizzes/take/QuizPage')) },
          // Anyone: a certificate verified by its code, the link learners share.
          { path: paths.certificate, ...page(() => import('../features/certificates/CertificatePage')) },
          { path: paths.checkout, ...page(() => import('../features/payments/CheckoutPage')) },
          { path: paths.checkoutSuccess, ...page(() => import('../features/payments/CheckoutSuccessPage')) },
          { path: paths.checkoutFail, ...page(() => import('../features/payments/CheckoutFailPage')) },
          {
            element: <RequireAuth allowedRoles={['ADMIN']} />,
            children: [
              { path: paths.createCourse, ...page(() => import('../features/courses/CreateCoursePage')) },
              { path: paths.editCourse, ...page(() => import('../features/authoring/CourseEditorPage')) },
              { path: paths.editQuiz, ...page(() => import('../features/quizzes/editor/QuizEditorPage')) },
              { path: paths.addLecture, ...page(() => import('../features/lectures/AddLecturePage')) },
              { path: paths.dashboard, ...page(() => import('../features/stats/DashboardPage')) },
              { path: paths.plans, ...page(() => import('../features/plans/PlansPage')) },
              { path: paths.coupons, ...page(() => import('../features/plans/CouponsPage')) },
              { path: paths.trace, ...page(() => import('../features/protection/TracePage')) },
              { path: paths.certificates, ...page(() => import('../features/certificates/admin/CertificatesAdminPage')) },
              { path: paths.learners, ...page(() => import('../features/learners/LearnersPage')) },
              { path: paths.learner, ...page(() => import('../features/learners/LearnerPage')) },
              { path: paths.activity, ...page(() => import('../features/activity/ActivityPage')) },
              { path: paths.quizResults, ...page(() => import('../features/quizzes/results/QuizResultsPage')) },
              // The site's settings, and the first administrator's setup after choosing a password.
              { path: paths.settings, ...page(() => import('../features/settings/SettingsPage')) },
              { path: paths.setup, ...page(() => import('../features/settings/SetupPage')) },
            ],
          },
          {
            element: <RequireAuth allowedRoles={['ADMIN', 'USER']} />,
            children: [
              { path: paths.profile, ...page(() => import('../features/auth/ProfilePage')) },
              { path: paths.editProfile, ...page(() => import('../features/auth/EditProfilePage')) },
              { path: paths.changePassword, ...page(() => import('../features/auth/ChangePasswordPage')) },
            ],
          },
          { path: '*', ...page(() => import('../features/errors/NotFoundPage')) },
        ],
      },
    ],
  },
];

/** The app's pages, for a router around them (a `BrowserRouter` in the app, a memory router in tests). */
export function AppRoutes() {
  return useRoutes(routes);
}
