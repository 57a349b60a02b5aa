import { endpoints } from '@lms/contract/endpoints';
import type { BodyOf, ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import type { LearnerCourse, LectureProgress } from '@lms/contract/progress';
import { COMPLETION_SHARE } from '@lms/contract/progress-rules';
import { API_ROOT, urlFor } from '../../lib/api-client';
import { takePageAnswer } from '../../lib/page-answers';
import { serverCall, serverState, type CacheDispatch } from '../../lib/server-state';
import { useAuth } from '../auth';
import { progressTexts } from './progress-texts';

/** The learner's list of started courses, apart from each course's own progress. */
const MINE = { type: 'Progress' as const, id: 'MINE' };

type Saved = ResponseOf<typeof endpoints.progress.save>;
type CourseAnswer = ResponseOf<typeof endpoints.progress.course>;

/**
 * The signed-in learner's progress, shared by the lecture page, the course page, the
 * catalogue's cards, the home page and the profile. Every call is quiet: progress adds to a page,
 * and a failed read or save must never interrupt a lecture with a toast.
 */
const progressApi = serverState.enhanceEndpoints({ addTagTypes: ['Progress'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Every course started, most recent first, with where to pick each up. */
    getMyProgress: build.query<ResponseOf<typeof endpoints.progress.mine>, void>({
      query: () => serverCall(endpoints.progress.mine, {}, { fallback: messages.failedLoadData, quiet: true }),
      providesTags: [MINE, 'Viewer'],
    }),
    /** Each lecture's position and completion in one course. */
    getCourseProgress: build.query<CourseAnswer, string>({
      query: (id) => serverCall(endpoints.progress.course, { params: { id } }, { fallback: messages.failedLoadData, quiet: true }),
      providesTags: (_answer, _error, id) => [{ type: 'Progress', id }, 'Viewer'],
    }),
    markCompleted: build.mutation<Saved, { courseId: string; lectureId: string; completed: boolean }>({
      query: ({ lectureId, completed }) =>
        serverCall(endpoints.progress.complete, { params: { lectureId }, body: { completed } }, { fallback: messages.operationFailed }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(progressSaved(courseId, data));
          dispatch(myProgressStale());
        } catch {
          // The client has shown the failure.
        }
      },
    }),
    /** Saves a position now; quiet (the player keeps playing whatever happens). The course's cached progress takes the answer. */
    saveProgress: build.mutation<Saved, { courseId: string; lectureId: string; body: SaveBody }>({
      query: ({ lectureId, body }) => serverCall(endpoints.progress.save, { params: { lectureId }, body }, { fallback: messages.operationFailed, quiet: true }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        if (!answer) return;
        dispatch(progressSaved(courseId, answer.data));
        dispatch(myProgressStale());
      },
    }),
    setAutoplayNext: build.mutation<ResponseOf<typeof endpoints.progress.settings>, { courseId: string; autoplayNext: boolean }>({
      query: ({ autoplayNext }) => serverCall(endpoints.progress.settings, { body: { autoplayNext } }, { fallback: messages.operationFailed }),
      // Optimistic: the switch moves as it is clicked.
      async onQueryStarted({ courseId, autoplayNext }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          progressApi.util.updateQueryData('getCourseProgress', courseId, (draft) => {
            draft.settings.autoplayNext = autoplayNext;
          }),
        );
        await queryFulfilled.catch(() => patch.undo());
      },
    }),
  }),
});

export const { useGetMyProgressQuery, useGetCourseProgressQuery, useMarkCompletedMutation, useSetAutoplayNextMutation } = progressApi;

/** A save's answer, written into the course's cached progress: the lecture's row and the course figures. */
export const progressSaved = (courseId: string, saved: Saved) => (dispatch: CacheDispatch) =>
  dispatch(
    progressApi.util.updateQueryData('getCourseProgress', courseId, (draft) => {
      if (saved.course) draft.course = saved.course;
      const lecture = saved.lecture;
      if (!lecture) return;
      const index = draft.lectures.findIndex((row) => row.lectureId === lecture.lectureId);
      if (index >= 0) draft.lectures[index] = lecture;
      else draft.lectures.push(lecture);
    }),
  );

/** The lists on the home page, the profile and the cards go stale once a lecture was watched. */
export const myProgressStale = () => progressApi.util.invalidateTags([MINE]);

export type SaveBody = BodyOf<typeof endpoints.progress.save>;

/** Saves a position now, through the cache (see `saveProgress` above). */
export const saveProgress = (courseId: string, lectureId: string, body: SaveBody) => (dispatch: CacheDispatch) =>
  dispatch(progressApi.endpoints.saveProgress.initiate({ courseId, lectureId, body })).unwrap();

/**
 * The last save of a page being left or hidden: `sendBeacon` outlives the page (a fetch may be
 * cut off). Same-origin, with the session cookie, as a JSON body the server reads like any other.
 */
export function beaconProgress(lectureId: string, body: SaveBody): boolean {
  const url = API_ROOT + urlFor(endpoints.progress.save, { params: { lectureId }, body });
  const payload = new Blob([JSON.stringify(body)], { type: 'application/json' });
  return typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, payload);
}

/** The signed-in learner's started courses (none for a visitor), and each one's progress by course id for the cards. */
export function useMyCourses(): { courses: LearnerCourse[]; byCourse: Map<string, LearnerCourse>; signedIn: boolean } {
  const signedIn = useAuth((auth) => auth.isLoggedIn);
  const { data } = useGetMyProgressQuery(undefined, { skip: !signedIn });
  const courses = (signedIn && data?.courses) || [];
  return { courses, byCourse: new Map(courses.map((item) => [item.courseId, item])), signedIn };
}

/** A course card's bar, for a course the learner started. */
export const cardProgress = (item: LearnerCourse | undefined) =>
  item && { percent: item.percent, label: progressTexts.courseProgress(item.completedLectures, item.lectureCount, item.percent) };

/** A saved position this close to either end is not worth resuming at (a tenth of a short video). */
const RESUME_MARGIN_SECONDS = 5;

/** Where a lecture opens for this learner: where they stopped, unless that was its very start or its end. */
export function resumePosition(duration: number | null, progress: LectureProgress | undefined): number {
  const margin = duration === null ? RESUME_MARGIN_SECONDS : Math.min(RESUME_MARGIN_SECONDS, duration / 10);
  if (!progress || progress.position < margin) return 0;
  if (duration === null) return progress.completed ? 0 : progress.position;
  const finished = progress.position >= duration - margin || (progress.completed && progress.position >= COMPLETION_SHARE * duration);
  return finished ? 0 : progress.position;
}

/** The learner's progress in a course sent with the page, put in the cache before the page's first render (see `cacheSentLectures` in the lectures). */
export function cacheSentProgress(dispatch: CacheDispatch, courseId: string): CourseAnswer | undefined {
  const sent = takePageAnswer(urlFor(endpoints.progress.course, { params: { id: courseId } })) as CourseAnswer | undefined;
  if (sent) dispatch(progressApi.util.upsertQueryEntries([{ endpointName: 'getCourseProgress', arg: courseId, value: sent }]));
  return sent;
}
