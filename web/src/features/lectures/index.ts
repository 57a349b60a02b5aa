/** The lectures of the course watched last, for anyone who reads the `lecture` area. */
export { selectLectures, useGetLecturesQuery } from './lectures.api';
/** The admin's arrangement of a course's curriculum, for the course editor's curriculum. */
export {
  useAddSectionMutation,
  useDeleteSectionMutation,
  useEditLectureMutation,
  useMoveLectureMutation,
  useMoveSectionMutation,
  useRenameSectionMutation,
} from './curriculum.api';
