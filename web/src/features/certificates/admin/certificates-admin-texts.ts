/**
 * The words of the administrator's certificates page. Not in the message catalogue
 * (contract/src/messages.ts), which ships in every page's first chunk: these load with the page.
 * The server's answers (issued, revoked, restored, refusals) are the catalogue's.
 */

const count = new Intl.NumberFormat('en-IN');

export const certificatesAdminTexts = {
  title: 'Certificates',
  intro: 'Certificates of completion: issued when a learner completes every lecture of a course, or by you by hand. Anyone can check one on its public page.',
  // The filter and the list
  course: 'Course',
  allCourses: 'All courses',
  total: (n: number) => `${count.format(n)} ${n === 1 ? 'certificate' : 'certificates'}`,
  listLabel: 'Certificates issued',
  loading: 'Loading certificates…',
  failed: 'The certificates could not be loaded.',
  empty: 'No certificates yet',
  emptyCourse: 'No certificates for this course yet',
  emptyHint: 'Learners get one when they complete every lecture of a course. You can also issue one by hand.',
  learner: 'Learner',
  namePrinted: 'Name printed',
  issued: 'Issued',
  issuedBy: (name: string) => `by ${name}`,
  earned: 'Earned',
  state: 'State',
  actions: 'Actions',
  code: 'Code',
  states: { issuing: 'Issuing', ready: 'Ready' },
  revoked: 'Revoked',
  revokedOnDay: (date: string) => `on ${date}`,
  // A row's actions
  view: 'View',
  viewNamed: (learner: string, course: string) => `View the certificate of ${learner} for ${course} (opens in a new tab)`,
  pdf: 'PDF',
  pdfNamed: (learner: string, course: string) => `Download the PDF of ${learner}’s certificate for ${course}`,
  pdfBeingMade: 'The PDF is still being made',
  revoke: 'Revoke',
  restore: 'Restore',
  revokeNamed: (learner: string, course: string) => `Revoke the certificate of ${learner} for ${course}`,
  restoreNamed: (learner: string, course: string) => `Restore the certificate of ${learner} for ${course}`,
  // The confirmation
  revokeTitle: 'Revoke this certificate?',
  revokeBody: (learner: string, course: string) =>
    `${learner}’s certificate for ${course} will show as revoked, from today, to anyone who checks it. You can restore it later.`,
  restoreTitle: 'Restore this certificate?',
  restoreBody: (learner: string, course: string) => `${learner}’s certificate for ${course} will show as valid again to anyone who checks it.`,
  cancel: 'Cancel',
  close: 'Close',
  // Pages
  pagination: 'Pages of certificates',
  // Export
  exportCsv: 'Export CSV',
  exportCourseHint: 'The CSV holds this course’s certificates only.',
  // Issuing by hand
  issue: 'Issue certificate',
  issueTitle: 'Issue a certificate',
  issueIntro: 'For a learner who completed the course some other way. Their PDF is made in a moment, with the name they chose for certificates.',
  email: 'Learner’s email',
  emailHint: 'The email of their account on this site.',
  chooseCourse: 'Choose a course',
  courseDeleted: 'Course deleted',
  coursesLoading: 'Loading courses…',
};
