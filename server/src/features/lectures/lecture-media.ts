import { lectures } from '../../db/schema.ts';

/** The columns naming a lecture's media: the upload, and what the video pipeline made of it. */
export const LECTURE_MEDIA = { videoKey: lectures.videoKey, posterKey: lectures.posterKey, hlsKey: lectures.hlsKey };

/** Every media key a lecture row names; deleting the lecture removes each. */
export const lectureMediaKeys = (row: { videoKey: string; posterKey: string | null; hlsKey: string | null }) =>
  [row.videoKey, row.posterKey, row.hlsKey].filter((key) => key !== null);
