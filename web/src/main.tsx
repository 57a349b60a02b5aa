import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { messages } from '@lms/contract/messages';

// A placeholder until the web app lands: it shows that the server hosts the built app.
function Placeholder() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>LMS</h1>
      <p>Video courses and a one-month bundle that unlocks every course. The web app is on its way.</p>
      <p>
        The API is described at <a href="/api/docs">/api/docs</a>.
      </p>
      <footer>
        Copyright {new Date().getFullYear()} | {messages.footerRights}
      </footer>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Placeholder />
  </StrictMode>,
);
