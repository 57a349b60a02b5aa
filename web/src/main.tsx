import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Toaster } from 'react-hot-toast';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { createRouter } from './app/router';
import { createStore } from './app/store';
import { ToastLimit } from './components/ToastLimit';

const store = createStore();
const router = createRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
      {/* Spec §9: errors stay 4 s, successes 2 s, at most 20 at once. */}
      <Toaster position="top-center" toastOptions={{ error: { duration: 4000 }, success: { duration: 2000 } }} />
      <ToastLimit max={20} />
    </Provider>
  </StrictMode>,
);
