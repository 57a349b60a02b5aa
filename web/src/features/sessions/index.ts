/** The profile's list of signed-in devices. */
export { SignedInDevices } from './SignedInDevices';
