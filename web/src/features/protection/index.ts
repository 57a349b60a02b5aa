/**
 * What other features use of content protection: the lecture page plays a lecture under a playback
 * lease (the refusal, the notices, the watermark's words); the dashboard shows the sharing-risk card.
 */
export { PlaybackFailed, PlaybackStopped } from './PlaybackNotice';
export { playbackTexts } from './playback-texts';
export { SharingRiskCard } from './SharingRiskCard';
export { StreamLimitPanel } from './StreamLimitPanel';
export { usePlayback, watermarkOf, type PlaybackControls, type PlaybackState } from './use-playback';
