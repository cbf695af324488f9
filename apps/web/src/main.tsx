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

// The layout is painted at once (the header, the cookie banner) while the page's code, which the
// server's links have the browser fetch beside the entry, arrives; the page then renders in its
// place (docs/decisions/027). The footer starts below the fold (decision 020), so nothing on screen
// moves when it does.
void preloadPage(window.location.pathname).catch(() => undefined);
createRoot(root).render(
  <StrictMode>
    <ToastProvider>
      <App />
    </ToastProvider>
  </StrictMode>,
);
