/**
 * The words of the admin's "Replace video". Not in the message catalogue (contract/src/messages.ts),
 * which ships in every page's first chunk: these load with the admin's lecture tools.
 */
export const replaceVideoTexts = {
  replaceVideo: 'Replace video',
  replaceVideoOf: (title: string) => `Replace video of “${title}”`,
  chooseVideoFor: (title: string) => `Choose the new video for “${title}”`,
  confirm: (title: string, fileName: string) =>
    `Replace the video of “${title}” with “${fileName}”?\n\nThe lecture keeps its place and its learners’ progress. The current video is deleted once the new one plays.`,
  uploading: (percent: number) => `Uploading the new video… ${percent}%`,
  uploadProgressOf: (title: string) => `Upload of the new video for “${title}”`,
  cancelUpload: 'Cancel upload',
  newVideo: 'New video',
  currentPlaysUntilReady: 'the current one plays until it is ready',
  currentKeepsPlaying: 'the current one keeps playing',
  newVideoOf: (title: string) => `New video for “${title}”`,
  replaced: (title: string) => `The new video of “${title}” plays from now on`,
};
