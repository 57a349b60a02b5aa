// `npm start`: builds what is older than its sources, then runs the server in this very process.
// In this process, not a child of it: npm passes a stop signal (SIGTERM from a service manager,
// SIGINT from Ctrl-C) only to the process it started, and a child would be left running.
import { pathToFileURL } from 'node:url';
import { buildIfStale, root, serverBundle } from './build.mjs';

try {
  await buildIfStale();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

// What `node --enable-source-maps` did: stack traces name the TypeScript lines. It applies to
// what is loaded from here on, which is the bundle.
process.setSourceMapsEnabled(true);
// The data folder and the web app are found from the project folder, wherever this was started.
process.chdir(root);
await import(pathToFileURL(serverBundle).href);
