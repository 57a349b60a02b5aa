/** The lectures of the course watched last, for anyone who reads the `lecture` area. */
export { selectLectures } from './lectures.api';
