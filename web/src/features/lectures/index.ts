/** The lectures of the course watched last, for anyone who reads the `lecture` area. */
export { selectLectures } from './lectures.api';
/** The admin's course editor adds lectures and lists them through these. */
export { addLecture, useGetLecturesQuery } from './lectures.api';
/** A lecture's files with download links; an administrator attaches and removes them. */
export { LectureResources } from './LectureResources';
