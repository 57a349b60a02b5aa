/** The checkout's root folder. */
export const root: string;
/** The esbuild bundle that `npm start` runs. */
export const serverBundle: string;
/** Builds the web app and the server bundle where they are older than their sources. */
export function buildIfStale(): Promise<void>;
