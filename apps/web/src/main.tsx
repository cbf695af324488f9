import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ToastProvider } from './components/ui/toast.tsx';
import { createRouter } from './app/router.tsx';
import './styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

createRoot(root).render(
  <StrictMode>
    <ToastProvider>
      <RouterProvider router={createRouter()} />
    </ToastProvider>
  </StrictMode>,
);
