/** A lecture's captions for the player (the list query) and the transcript beside it. */
export { useGetCaptionsQuery } from './captions.api';
export { Transcript } from './Transcript';
/** Where an administrator manages a lecture's captions (the lecture page, beside its files), with the cue editor. */
export { CaptionsManager } from './CaptionsManager';
/** The same for a page where administrators alone see it (the lecture page): its own chunk, loaded when first shown. */
export const loadCaptionsManager = () => import('./CaptionsManager').then((module) => ({ default: module.CaptionsManager }));
