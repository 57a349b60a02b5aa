import { lectures } from '../../db/schema.ts';

/** The columns naming a lecture's media: the upload, what the video pipeline made of it, and a replacement on its way. */
export const LECTURE_MEDIA = {
  videoKey: lectures.videoKey,
  posterKey: lectures.posterKey,
  hlsKey: lectures.hlsKey,
  replacementVideoKey: lectures.replacementVideoKey,
};

/** Every media key a lecture row names; deleting the lecture removes each. */
export const lectureMediaKeys = (row: { videoKey: string; posterKey: string | null; hlsKey: string | null; replacementVideoKey: string | null }) =>
  [row.videoKey, row.posterKey, row.hlsKey, row.replacementVideoKey].filter((key) => key !== null);
