/** Every route of the web app (spec §2): one list, in contract/, that the server reads too. */
export { pagePaths as paths } from '@lms/contract/pages';
