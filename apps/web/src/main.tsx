import './lib/zod-jitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ToastProvider } from './components/ui/toast.tsx';
import { App, preloadPage } from './app/router.tsx';
import { earlyRequestsFor } from './app/early-requests.ts';
import { startEarlyGet } from './lib/early-request.ts';
import './styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

// The page's first request, sent now beside its code (docs/decisions/027).
earlyRequestsFor(window.location.pathname).forEach(startEarlyGet);

// The page's own code first, then one render: the layout does not show a loading state and then
// move its footer when the page arrives (a layout shift). A page whose code fails to load renders
// anyway and shows the route error.
void preloadPage(window.location.pathname)
  .catch(() => undefined)
  .then(() => {
    createRoot(root).render(
      <StrictMode>
        <ToastProvider>
          <App />
        </ToastProvider>
      </StrictMode>,
    );
  });
