/** Every route of the web app (spec §2), in one place. */
export const paths = {
  home: '/',
  about: '/about',
  login: '/login',
  signup: '/Signup',
  courses: '/courses',
  courseDescription: '/course/description',
  courseLecture: '/course/lecture',
  addLecture: '/course/addlecture',
  createCourse: '/course/create',
  /** Ours: editing a course, reached from the dashboard. */
  editCourse: '/course/edit',
  dashboard: '/admin/dashboard',
  /** Ours (issue 16): the plans sold and the coupons given, reached from the dashboard. */
  plans: '/admin/plans',
  coupons: '/admin/coupons',
  contact: '/contact',
  profile: '/user/profile',
  editProfile: '/user/editprofile',
  changePassword: '/changepassword',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password/:token',
  /** Ours: a one-time sign-in link, mailed when sign-ins to an account are paused (decision 0021). */
  signInLink: '/sign-in/:token',
  checkout: '/checkout',
  checkoutSuccess: '/checkout/success',
  checkoutFail: '/checkout/fail',
  denied: '/denied',
} as const;
