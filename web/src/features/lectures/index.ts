/** The lectures of the course watched last, for anyone who reads the `lecture` area. */
export { selectLectures, useGetLecturesQuery } from './lectures.api';
/** The admin's course editor adds lectures through this. */
export { addLecture } from './lectures.api';
/** A lecture's files with download links; an administrator attaches and removes them. */
export { LectureResources } from './LectureResources';
/** The admin's arrangement of a course's curriculum, for the course editor's curriculum. */
export {
  useAddSectionMutation,
  useDeleteSectionMutation,
  useEditLectureMutation,
  useMoveLectureMutation,
  useMoveSectionMutation,
  useRenameSectionMutation,
} from './curriculum.api';
/** The course editor's controls of each lecture: a new video, removal. */
export { ReplaceVideoButton } from './ReplaceVideoButton';
export { useDeleteLectureMutation } from './lectures.api';
