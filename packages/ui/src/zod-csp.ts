import { z } from 'zod';

// The site's CSP forbids eval. Zod would otherwise probe `new Function` to JIT-compile its parsers, which the
// browser reports as a CSP violation; jitless parsing is plenty fast for forms and API answers. zod is a
// federated singleton, so this one call covers the shell and every remote.
z.config({ jitless: true });
