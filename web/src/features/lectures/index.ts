/** The lectures of the course watched last, for anyone who reads the `lecture` area. */
export { selectLectures } from './lectures.api';
/** The admin's course editor adds lectures and lists them through these. */
export { addLecture, useGetLecturesQuery } from './lectures.api';
