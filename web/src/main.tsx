import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/router';
import { createStore } from './app/store';
import { Toasts } from './lib/components/ToastLimit';

const store = createStore();

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
