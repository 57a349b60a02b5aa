/** A lecture's captions for the player (the list query) and the transcript beside it. */
export { useGetCaptionsQuery } from './captions.api';
export { Transcript } from './Transcript';
