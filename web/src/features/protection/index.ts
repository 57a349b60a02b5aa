/**
 * What other features use of content protection: the lecture page plays a lecture under a playback
 * lease (the refusal, the notices, the watermark's words); the dashboard shows the sharing-risk card;
 * a learner's page suspends and restores with the same dialog as the lists here.
 */
export { PlaybackFailed, PlaybackStopped } from './PlaybackNotice';
export { playbackTexts } from './playback-texts';
export { SharingRiskCard } from './SharingRiskCard';
export { StreamLimitPanel } from './StreamLimitPanel';
export { useEndAccountSessionsMutation } from './protection.api';
export { SuspensionDialog, type SuspensionTarget } from './SuspensionDialog';
export { startEarlyLease } from './early-lease';
export { usePlayback, watermarkOf, type PlaybackControls, type PlaybackState } from './use-playback';
