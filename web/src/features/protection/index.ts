/** Playback leases and the watermark, as the lecture page plays a lecture under them. */
export { PlaybackFailed, PlaybackStopped } from './PlaybackNotice';
export { playbackTexts } from './playback-texts';
export { StreamLimitPanel } from './StreamLimitPanel';
export { usePlayback, watermarkOf, type PlaybackControls, type PlaybackState } from './use-playback';
