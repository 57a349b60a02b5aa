/** A lecture's captions for the player (the list query) and the transcript beside it. */
export { useGetCaptionsQuery } from './captions.api';
export { Transcript } from './Transcript';
/** Where an administrator manages a lecture's captions (the lecture page, beside its files), with the cue editor. */
export { CaptionsManager } from './CaptionsManager';
