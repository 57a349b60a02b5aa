/**
 * The words of the administrator's quiz results page. Not in the message catalogue
 * (contract/src/messages.ts), which ships in every page's first chunk: these load with the page.
 */

const count = new Intl.NumberFormat('en-IN');
const percent = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 1 });

export const quizResultsTexts = {
  title: 'Quiz results',
  /** The course editor's link to this page. */
  link: 'Quiz results',
  intro: 'How learners do in each quiz of this course: finished attempts only (an attempt under way counts once it is submitted or its time runs out).',
  editor: 'Course editor',
  noCourse: 'Choose a course from the dashboard to see its quiz results.',
  loading: 'Loading the quiz results…',
  failed: 'The quiz results could not be loaded.',
  attemptsFailed: 'The attempts could not be loaded.',
  retry: 'Try again',
  // The quizzes' cards
  quizzesLabel: 'Quizzes of this course',
  noQuizzes: 'This course has no quizzes yet',
  noQuizzesHint: 'Add a quiz in the course editor; its results show here once learners take it.',
  questions: (n: number) => `${count.format(n)} ${n === 1 ? 'question' : 'questions'}`,
  attempts: 'Attempts',
  learners: 'Learners',
  passRate: 'Pass rate',
  averageScore: 'Average score',
  percent: (value: number) => `${percent.format(value)}%`,
  none: '—',
  noAttempts: 'No attempts yet',
  noAttemptsHint: 'Figures appear here once learners submit this quiz.',
  hardest: 'Hardest questions',
  hardestHint: 'Lowest share of right answers first',
  noHardest: 'No question has been answered yet.',
  correctRate: (rate: number, answered: number) => `${percent.format(rate)}% right of ${count.format(answered)}`,
  correctRateLabel: (prompt: string) => `Right answers to “${prompt}”`,
  // The attempts
  attemptsHeading: 'Attempts',
  attemptsLabel: 'Quiz attempts, newest first',
  total: (n: number) => `${count.format(n)} ${n === 1 ? 'attempt' : 'attempts'}`,
  learner: 'Learner',
  quiz: 'Quiz',
  version: 'Version',
  versionNumber: (n: number) => `v${n}`,
  score: 'Score',
  result: 'Result',
  date: 'Date',
  passed: 'Passed',
  failed_: 'Failed',
  timeUp: 'Time ran out',
  attemptNumber: (n: number) => `Attempt ${count.format(n)}`,
  showLearner: (name: string) => `Show only the attempts of ${name}`,
  filteredTo: (name: string) => `Attempts of ${name}`,
  filteredToUnknown: 'Attempts of one learner',
  showAll: 'Show every learner',
  noLearnerAttempts: 'This learner has no finished attempts in this course.',
  // Paging
  pagination: 'Pages of attempts',
};
