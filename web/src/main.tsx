import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { AppRoutes, preloadPage } from './app/router';
import { createStore } from './app/store';
import { Toasts } from './lib/components/ToastLimit';

const store = createStore();

const start = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={store}>
        {/* Not in a transition: the page shown always matches the address (a page whose code is on its
            way shows the page fallback), so nothing is read or typed into the page being left. */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
        <Toasts />
      </Provider>
    </StrictMode>,
  );

// A page whose HTML names its chunks (modulepreload, server/src/web-app.ts) has them on their way with this
// one: the first render waits for them and shows the page, rather than its fallback and the page 300 ms later;
// the page starts what it can before that render (a lecture's lease, whose answer the render waits a moment for).
if (document.querySelector('link[rel="modulepreload"]')) preloadPage(window.location.pathname, store).then(start, start);
else start();
