// How Debian's Chromium is started by the end-to-end tests, the screenshots and the bench.

/** The machine has no network but the registries: without these flags Chromium keeps calling home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
