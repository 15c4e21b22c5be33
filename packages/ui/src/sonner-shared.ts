// sonner, as the federation shares it. An import declaration on purpose: the federation turns it into a lookup of
// the shared singleton, so the toaster the shell mounts and every remote's toasts meet in one module. (A dynamic
// `import('sonner')` or an `export … from 'sonner'` would bundle a private copy whose toasts no toaster shows.)
import { toast, Toaster } from 'sonner';

export { toast, Toaster };
