/** The flags every Chromium of the project is started with (scripts/chromium.mjs). */
export const CHROMIUM_ARGS: readonly string[];
