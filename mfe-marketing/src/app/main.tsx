// Standalone entry: the remote without the shell, for its own team (`pnpm --filter mfe-marketing preview`).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { StandaloneHost } from '@site/ui';
import App from './App';
import '../index.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneHost name="marketing" home="/">
      <App />
    </StandaloneHost>
  </StrictMode>,
);
