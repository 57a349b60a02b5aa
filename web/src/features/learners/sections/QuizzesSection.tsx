import type { LearnerDetail } from '@lms/contract/learners';
import { learnersTexts as texts } from '../learners-texts';
import { DotBadge } from './badges';
import { Section } from './Section';

/** Each quiz attempted: its course, how many attempts, the best score and whether it was passed. */
export function QuizzesSection({ learner }: { learner: LearnerDetail }) {
  return (
    <Section title={texts.quizzes} empty={learner.quizzes.length === 0} emptyText={texts.noQuizzes}>
      <ul className="flex flex-col divide-y divide-base-300 text-sm">
        {learner.quizzes.map((quiz) => (
          <li key={quiz.quizId} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-2 first:pt-0 last:pb-0">
            <div className="min-w-40 flex-1">
              <p className="font-medium wrap-anywhere">{quiz.quizTitle}</p>
              <p className="text-base-content/70 wrap-anywhere">{quiz.courseTitle}</p>
            </div>
            <dl className="flex items-start gap-4 text-right">
              <div>
                <dt className="text-xs text-base-content/70">{texts.attempts}</dt>
                <dd className="tabular-nums">{quiz.attempts}</dd>
              </div>
              <div>
                <dt className="text-xs text-base-content/70">{texts.bestScore}</dt>
                <dd className="tabular-nums">{quiz.bestScore === null ? texts.notGraded : `${quiz.bestScore}%`}</dd>
              </div>
              <div className="self-center">
                <dt className="sr-only">{texts.status}</dt>
                <dd>
                  <DotBadge dot={quiz.passed ? 'bg-success' : 'bg-base-content/40'}>{quiz.passed ? texts.passed : texts.notPassed}</DotBadge>
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </Section>
  );
}
