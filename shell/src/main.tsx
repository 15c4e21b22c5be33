import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { ErrorBoundary, ErrorFallback } from '@site/ui';
import { App } from './app/App';
import { preloadCurrentRemote } from './features/remotes/lib/preload-remote';
import './index.css';

preloadCurrentRemote();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary fallback={({ reset }) => <ErrorFallback reset={reset} />}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </ErrorBoundary>
  </StrictMode>,
);
