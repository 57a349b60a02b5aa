import { answers } from '@lms/contract/answers';
import type { Lecture, Section } from '@lms/contract/lectures';
import { QUIZ_LIMITS, type AuthoredQuiz, type QuestionType, type QuizPlacement } from '@lms/contract/quizzes';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Notice } from '../../../lib/components/Notice';
import { groupBySection } from '../../../lib/lecture-groups';
import { courseLink, paths } from '../../../lib/paths';
import { messageOf } from '../../../lib/server-state';
import { usePageTitle } from '../../../lib/use-page-title';
import { useGetCourseQuery } from '../../courses';
import { useGetLecturesQuery } from '../../lectures';
import { FieldProblem, QuestionEditor } from './QuestionEditor';
import {
  blankDraft,
  blankQuestion,
  draftOf,
  editQuizLink,
  firstProblem,
  inputOf,
  placeOf,
  placeValue,
  type DraftQuestion,
  type Problem,
  type QuizDraft,
} from './quiz-draft';
import { useCreateQuizMutation, useDeleteQuizMutation, useGetAuthoredQuizQuery, usePlaceQuizMutation, useUpdateQuizMutation } from './quiz-editor.api';
import { quizEditorTexts as texts } from './quiz-editor-texts';
import { AdminTrail } from '../../../lib/components/AdminPageHeader';

/**
 * The admin writes a quiz of a course (`?id=` the course, `&quiz=` the quiz; none: a new one, at
 * `&section=` / `&after=` or the course's end): its settings, its place, and its questions. The
 * contract's own schema checks it before it is sent, and the first problem is said at its field.
 * A save that changes something makes a new version on the server; attempts already made stay
 * graded against theirs.
 */
export default function QuizEditorPage() {
  const [search] = useSearchParams();
  const courseId = search.get('id') ?? '';
  const quizId = search.get('quiz') ?? '';
  const course = useGetCourseQuery(courseId, { skip: !courseId });
  const curriculum = useGetLecturesQuery(courseId, { skip: !courseId });
  const quiz = useGetAuthoredQuizQuery({ courseId, quizId }, { skip: !courseId || !quizId });
  const authored = quiz.currentData?.quiz;
  usePageTitle(quizId ? (authored ? `${texts.editTitle}: ${authored.title}` : texts.editTitle) : texts.newTitle);

  const backToCourse = courseLink(paths.editCourse, { _id: courseId });
  let body: ReactNode;
  if (!courseId || (quizId && quiz.isError && (quiz.error as { status?: number }).status === 404)) {
    body = (
      <p className="p-8 text-center">
        <Link className="link link-primary" to={courseId ? backToCourse : paths.dashboard}>
          {texts.notFound}
        </Link>
      </p>
    );
  } else if (quizId && quiz.isError && !authored) {
    body = (
      <div role="alert" className="alert alert-warning flex flex-wrap">
        <span className="wrap-anywhere">{messageOf(quiz.error, texts.loadFailed)}</span>
        <button type="button" className="btn btn-sm" onClick={() => void quiz.refetch()}>
          {texts.retry}
        </button>
      </div>
    );
  } else if (quizId && !authored) {
    body = (
      <div aria-live="polite" className="space-y-3">
        <p className="sr-only">{texts.loading}</p>
        <div className="skeleton h-64 w-full" aria-hidden="true" />
        <div className="skeleton h-48 w-full" aria-hidden="true" />
      </div>
    );
  } else {
    const sections = curriculum.currentData?.sections ?? [];
    const lectures = curriculum.currentData?.lectures ?? [];
    const place: QuizPlacement = authored
      ? { sectionId: authored.sectionId, afterLectureId: authored.afterLectureId }
      : placeOf(search.get('after') ? `after:${search.get('after')}` : search.get('section') ? `section:${search.get('section')}` : 'end', (id) =>
          sectionOf(lectures, id),
        );
    body = (
      <QuizForm
        // A new quiz's form starts afresh once the server has it (with its ids); an existing one keeps its own.
        key={authored?._id ?? 'new'}
        courseId={courseId}
        quiz={authored ?? null}
        initialPlace={place}
        sections={sections}
        lectures={lectures}
      />
    );
  }

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-3">
        <AdminTrail
          via={courseId ? [{ to: backToCourse, label: course.currentData?.title ?? texts.courseEditor }] : []}
          current={quizId ? texts.editTitle : texts.newTitle}
        />
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <h1 className="text-3xl font-bold wrap-anywhere">{quizId ? (authored?.title ?? texts.editTitle) : texts.newTitle}</h1>
          {authored && <span className="badge badge-outline">{texts.version(authored.version)}</span>}
        </div>
      </header>
      {body}
    </div>
  );
}

const sectionOf = (lectures: readonly Lecture[], lectureId: string) => lectures.find((lecture) => lecture._id === lectureId)?.sectionId ?? null;

function QuizForm({
  courseId,
  quiz,
  initialPlace,
  sections,
  lectures,
}: {
  courseId: string;
  quiz: AuthoredQuiz | null;
  initialPlace: QuizPlacement;
  sections: readonly Section[];
  lectures: readonly Lecture[];
}) {
  const id = useId();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<QuizDraft>(() => (quiz ? draftOf(quiz) : blankDraft()));
  const [place, setPlace] = useState(() => placeValue(initialPlace));
  const [problem, setProblem] = useState<Problem | null>(null);
  const [unchanged, setUnchanged] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [focusKeys, setFocusKeys] = useState<string[] | null>(null);
  const root = useRef<HTMLFormElement>(null);
  const [createQuiz, creating] = useCreateQuizMutation();
  const [updateQuiz, updating] = useUpdateQuizMutation();
  const [placeQuiz, placing] = usePlaceQuizMutation();
  const [deleteQuiz, deleting] = useDeleteQuizMutation();
  const busy = creating.isLoading || updating.isLoading || placing.isLoading || deleting.isLoading;
  const groups = useMemo(() => groupBySection(sections, lectures), [sections, lectures]);

  // The place the address or the quiz named, once the curriculum has come (a lecture's section is known then).
  useEffect(() => setPlace(placeValue(initialPlace)), [initialPlace.afterLectureId, initialPlace.sectionId]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!focusKeys) return;
    for (const key of focusKeys) {
      const control = root.current?.querySelector<HTMLElement>(`[data-focus="${key}"]`);
      if (control && !(control as HTMLButtonElement).disabled) {
        control.focus();
        break;
      }
    }
    setFocusKeys(null);
  }, [focusKeys, draft]);

  const change = (next: Partial<QuizDraft>) => {
    setDraft((current) => ({ ...current, ...next }));
    setUnchanged(false);
  };
  const setQuestion = (key: string, question: DraftQuestion) => change({ questions: draft.questions.map((item) => (item.key === key ? question : item)) });

  function stepQuestion(index: number, direction: 'up' | 'down') {
    const to = direction === 'up' ? index - 1 : index + 1;
    const questions = [...draft.questions];
    const [moved] = questions.splice(index, 1);
    questions.splice(to, 0, moved!);
    change({ questions });
    setProblem(null);
    setAnnouncement(texts.questionMoved(index + 1, to + 1));
    const other = direction === 'up' ? 'down' : 'up';
    setFocusKeys([`question:${moved!.key}:${direction}`, `question:${moved!.key}:${other}`]);
  }

  function removeQuestion(index: number) {
    const questions = draft.questions.filter((_, at) => at !== index);
    change({ questions });
    setProblem(null);
    setAnnouncement(texts.questionRemoved(index + 1));
    const next = questions[index] ?? questions[index - 1];
    setFocusKeys(next ? [`question:${next.key}:heading`] : ['add-question']);
  }

  function addQuestion(type: QuestionType) {
    const question = blankQuestion(type);
    change({ questions: [...draft.questions, question] });
    setFocusKeys([`question:${draft.questions.length}:prompt`]);
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const input = inputOf(draft);
    const placement = placeOf(place, (lectureId) => sectionOf(lectures, lectureId));
    const found = firstProblem(quiz ? input : { ...input, ...placement }, !quiz);
    setProblem(found);
    setUnchanged(false);
    if (found) {
      setFocusKeys([found.at]);
      return;
    }
    if (!quiz) {
      const result = await createQuiz({ courseId, quiz: { ...input, ...placement } });
      if ('error' in result) return;
      toast.success(result.data.message || answers.quizAdded);
      return void navigate(editQuizLink(courseId, { quizId: result.data.quiz._id }), { replace: true });
    }
    const result = await updateQuiz({ courseId, quizId: quiz._id, quiz: input });
    if ('error' in result) return;
    let moved = false;
    if (placeValue(placement) !== placeValue(quiz)) {
      const placed = await placeQuiz({ courseId, quizId: quiz._id, place: placement });
      if ('error' in placed) return;
      moved = true;
    }
    // The saved questions and options now have the server's ids, which the next save sends back.
    setDraft(draftOf(result.data.quiz));
    if (result.data.message === answers.quizUnchanged && !moved) setUnchanged(true);
    else toast.success(result.data.message === answers.quizUnchanged ? answers.quizPlaced : result.data.message || answers.quizSaved);
  }

  async function remove() {
    if (!quiz || busy) return;
    if (!window.confirm(texts.confirmDelete(quiz.title, quiz.attempts))) return;
    const result = await deleteQuiz({ courseId, quizId: quiz._id });
    if (!('error' in result)) void navigate(courseLink(paths.editCourse, { _id: courseId }));
  }

  const problemFor = (at: string) => (problem?.at === at ? problem.message : undefined);
  const invalid = (at: string) => (problem?.at === at ? { 'aria-invalid': true, 'aria-describedby': `${id}-${at}-problem` } : {});

  return (
    <form ref={root} noValidate onSubmit={(event) => void save(event)} className="flex flex-col gap-6" aria-label={quiz ? texts.editTitle : texts.newTitle}>
      {quiz && quiz.attempts > 0 && <Notice role="note">{texts.attemptsNotice(quiz.attempts, quiz.version)}</Notice>}

      <section aria-labelledby={`${id}-settings`} className="card bg-base-100 shadow-sm ring-1 ring-base-content/10">
        <div className="card-body gap-4 p-4 sm:p-5">
          <h2 id={`${id}-settings`} className="card-title text-lg">
            {texts.settings}
          </h2>
          <div className="fieldset py-0">
            <label htmlFor={`${id}-title`} className="fieldset-legend pt-0 text-sm">
              {texts.title}
            </label>
            <input
              id={`${id}-title`}
              className={`input w-full ${problem?.at === 'title' ? 'input-error' : ''}`}
              value={draft.title}
              maxLength={QUIZ_LIMITS.titleMax}
              placeholder={texts.titlePlaceholder}
              data-focus="title"
              onChange={(event) => change({ title: event.target.value })}
              {...invalid('title')}
            />
            <FieldProblem id={`${id}-title-problem`} problem={problemFor('title')} />
          </div>

          <div className="grid gap-4 sm:grid-cols-3">
            <div className="fieldset py-0">
              <label htmlFor={`${id}-pass`} className="fieldset-legend pt-0 text-sm">
                {texts.passMark}
              </label>
              <label className={`input w-full ${problem?.at === 'passMark' ? 'input-error' : ''}`}>
                <input
                  id={`${id}-pass`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={100}
                  value={draft.passMark}
                  data-focus="passMark"
                  aria-describedby={`${id}-pass-hint${problem?.at === 'passMark' ? ` ${id}-passMark-problem` : ''}`}
                  onChange={(event) => change({ passMark: event.target.value })}
                  {...(problem?.at === 'passMark' && { 'aria-invalid': true })}
                />
                <span className="text-base-content/70">%</span>
              </label>
              <p id={`${id}-pass-hint`} className="label whitespace-normal">
                {texts.passMarkHint}
              </p>
              <FieldProblem id={`${id}-passMark-problem`} problem={problemFor('passMark')} />
            </div>

            <fieldset className="fieldset py-0">
              <legend className="fieldset-legend pt-0 text-sm">{texts.attempts}</legend>
              <Choice name={`${id}-attempts`} checked={!draft.attemptsLimited} onChange={() => change({ attemptsLimited: false })} label={texts.unlimited} />
              <Choice name={`${id}-attempts`} checked={draft.attemptsLimited} onChange={() => change({ attemptsLimited: true })} label={texts.limitedTo} />
              {draft.attemptsLimited && (
                <input
                  type="number"
                  inputMode="numeric"
                  className={`input input-sm w-full ${problem?.at === 'attempts' ? 'input-error' : ''}`}
                  min={1}
                  max={QUIZ_LIMITS.attemptsMax}
                  aria-label={texts.attemptsCount}
                  value={draft.attempts}
                  data-focus="attempts"
                  onChange={(event) => change({ attempts: event.target.value })}
                  {...invalid('attempts')}
                />
              )}
              <FieldProblem id={`${id}-attempts-problem`} problem={problemFor('attempts')} />
            </fieldset>

            <fieldset className="fieldset py-0">
              <legend className="fieldset-legend pt-0 text-sm">{texts.timeLimit}</legend>
              <Choice name={`${id}-time`} checked={!draft.timeLimited} onChange={() => change({ timeLimited: false })} label={texts.noTimeLimit} />
              <Choice name={`${id}-time`} checked={draft.timeLimited} onChange={() => change({ timeLimited: true })} label={texts.minutesLimit} />
              {draft.timeLimited && (
                <input
                  type="number"
                  inputMode="numeric"
                  className={`input input-sm w-full ${problem?.at === 'minutes' ? 'input-error' : ''}`}
                  min={1}
                  max={QUIZ_LIMITS.timeLimitMinutesMax}
                  aria-label={texts.minutes}
                  value={draft.minutes}
                  data-focus="minutes"
                  onChange={(event) => change({ minutes: event.target.value })}
                  {...invalid('minutes')}
                />
              )}
              {draft.timeLimited && <p className="label whitespace-normal">{texts.minutesHint}</p>}
              <FieldProblem id={`${id}-minutes-problem`} problem={problemFor('minutes')} />
            </fieldset>
          </div>

          <div className="grid gap-4 sm:grid-cols-2">
            <fieldset className="fieldset py-0">
              <legend className="fieldset-legend pt-0 text-sm">{texts.layout}</legend>
              <Choice name={`${id}-layout`} checked={draft.layout === 'one'} onChange={() => change({ layout: 'one' })} label={texts.layoutOne} />
              <Choice name={`${id}-layout`} checked={draft.layout === 'all'} onChange={() => change({ layout: 'all' })} label={texts.layoutAll} />
            </fieldset>
            <fieldset className="fieldset py-0">
              <legend className="fieldset-legend pt-0 text-sm">{texts.shuffle}</legend>
              <label className="label cursor-pointer items-start gap-2 whitespace-normal text-base-content">
                <input
                  type="checkbox"
                  className="toggle toggle-sm toggle-primary"
                  checked={draft.shuffleQuestions}
                  onChange={(event) => change({ shuffleQuestions: event.target.checked })}
                />
                {texts.shuffleQuestions}
              </label>
              <label className="label cursor-pointer items-start gap-2 whitespace-normal text-base-content">
                <input
                  type="checkbox"
                  className="toggle toggle-sm toggle-primary"
                  checked={draft.shuffleOptions}
                  onChange={(event) => change({ shuffleOptions: event.target.checked })}
                />
                {texts.shuffleOptions}
              </label>
            </fieldset>
          </div>

          <div className="fieldset py-0">
            <label htmlFor={`${id}-place`} className="fieldset-legend pt-0 text-sm">
              {texts.place}
            </label>
            <select
              id={`${id}-place`}
              className="select w-full"
              value={place}
              data-focus="place"
              onChange={(event) => setPlace(event.target.value)}
              {...invalid('place')}
            >
              {groups.map((group) =>
                group.section === null && group.lectures.length === 0 ? null : (
                  <optgroup key={group.section?._id ?? 'none'} label={group.section?.title ?? texts.noSection}>
                    {group.lectures.map(({ lecture }) => (
                      <option key={lecture._id} value={`after:${lecture._id}`}>
                        {texts.placeAfter(lecture.title)}
                      </option>
                    ))}
                    {group.section && <option value={`section:${group.section._id}`}>{texts.placeSectionEnd(group.section.title)}</option>}
                  </optgroup>
                ),
              )}
              <option value="end">{texts.placeEnd}</option>
            </select>
            <FieldProblem id={`${id}-place-problem`} problem={problemFor('place')} />
          </div>
        </div>
      </section>

      <section aria-labelledby={`${id}-questions`} className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id={`${id}-questions`} className="text-xl font-bold">
            {texts.questions}
          </h2>
          <span className="text-sm text-base-content/70">{texts.questionCount(draft.questions.length)}</span>
        </div>
        {problem?.at === 'questions' && (
          <p role="alert" className="alert alert-error alert-soft" id={`${id}-questions-problem`}>
            {problem.message}
          </p>
        )}
        {draft.questions.length === 0 ? (
          <p className="rounded-box bg-base-200 p-6 text-center">{texts.noQuestions}</p>
        ) : (
          <ol className="flex flex-col gap-4">
            {draft.questions.map((question, index) => (
              <QuestionEditor
                key={question.key}
                question={question}
                index={index}
                count={draft.questions.length}
                problem={problem}
                onChange={(next) => setQuestion(question.key, next)}
                onStep={(direction) => stepQuestion(index, direction)}
                onRemove={() => removeQuestion(index)}
              />
            ))}
          </ol>
        )}
        {draft.questions.length < QUIZ_LIMITS.questions && (
          <div className="rounded-box border border-dashed border-base-content/25 p-3" role="group" aria-labelledby={`${id}-add`}>
            <p id={`${id}-add`} className="mb-2 text-sm font-medium">
              {texts.addQuestion}
            </p>
            <div className="flex flex-col gap-2 sm:flex-row">
              {(['single', 'multiple', 'text'] as const).map((type, at) => (
                <button
                  key={type}
                  type="button"
                  className="btn btn-outline btn-sm btn-primary"
                  data-focus={at === 0 ? 'add-question' : undefined}
                  onClick={() => addQuestion(type)}
                >
                  {texts.types[type]}
                </button>
              ))}
            </div>
          </div>
        )}
      </section>

      <div className="sticky bottom-0 z-10 -mx-4 flex flex-col gap-3 border-t border-base-content/10 bg-base-100/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-box sm:border sm:px-4">
        {problem && problem.at !== 'questions' && (
          <p role="alert" className="text-sm font-medium text-error wrap-anywhere">
            {texts.fixFirst} {problem.message}
          </p>
        )}
        {unchanged && <Notice role="status">{answers.quizUnchanged}</Notice>}
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={creating.isLoading || updating.isLoading || placing.isLoading}>
            {(creating.isLoading || updating.isLoading || placing.isLoading) && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {quiz ? texts.save : texts.create}
          </button>
          <Link to={courseLink(paths.editCourse, { _id: courseId })} className="btn btn-ghost">
            {texts.cancel}
          </Link>
          {quiz && (
            <button type="button" className="btn ml-auto btn-ghost text-error" disabled={busy} onClick={() => void remove()}>
              {texts.deleteQuiz}
            </button>
          )}
        </div>
      </div>
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </form>
  );
}

function Choice({ name, checked, onChange, label }: { name: string; checked: boolean; onChange: () => void; label: string }) {
  return (
    <label className="label cursor-pointer gap-2 text-base-content">
      <input type="radio" className="radio radio-sm radio-primary" name={name} checked={checked} onChange={onChange} />
      {label}
    </label>
  );
}
