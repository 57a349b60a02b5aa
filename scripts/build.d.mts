/** The checkout's root folder. */
export const root: string;
/** The esbuild bundle that `npm start` runs. */
export const serverBundle: string;
/** A new embedded database with the migrations applied, which first starts copy. */
export const databaseTemplate: string;
/** Builds the web app, the server bundle and the database template where they are older than their sources. */
export function buildIfStale(): Promise<void>;
