/** Where an administrator manages a lecture's captions (the lecture page, beside its files), with the cue editor. */
export { CaptionsManager } from './CaptionsManager';
