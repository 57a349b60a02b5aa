/** The player's own words, beside the catalogue's (messages.videoQuality, videoShortcuts): these load with the player. */
export const playerTexts = {
  fullscreen: 'Full screen',
  exitFullscreen: 'Exit full screen',
  watermarkHidden: 'The watermark must stay visible to play this video',
  captions: 'Captions',
  captionsOff: 'Off',
  captionsHint: 'Captions (C)',
  /** Added to the shortcuts (messages.videoShortcuts) when the lecture has captions. */
  captionsShortcut: ', C captions',
};
