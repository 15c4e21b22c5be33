import type { Plugin } from 'vite';

/**
 * A remote's stylesheet is linked once.
 *
 * The federation plugin's remoteEntry.js adds a `<link rel="stylesheet">` for the remote's CSS when ./App is loaded,
 * remembering only the links it added itself. A server-rendered page already links that stylesheet (the server reads
 * it from the remote's manifest, `styles`), so the runtime linked it a second time by its absolute address: the
 * browser parsed it again and restyled the whole document while the page was coming to life (a long task on a phone).
 * This makes the runtime skip a stylesheet the document already links, by its resolved address.
 *
 * It rewrites the runtime's own check (`if (href in seen) return;`) in remoteEntry.js, before minification; a plugin
 * version that words it otherwise fails the build here rather than linking twice unnoticed.
 */
export const FEDERATION_CSS_CHECK = 'if (href in seen) return;';

export const LINKED_CHECK =
  "if (href in seen || Array.prototype.some.call(document.querySelectorAll('link[rel=\"stylesheet\"]'), (l) => l.href === new URL(href, document.baseURI).href)) return;";

export function linkRemoteStylesOncePlugin(filename = 'remoteEntry.js'): Plugin {
  return {
    name: 'site:link-remote-styles-once',
    apply: 'build',
    renderChunk(code, chunk) {
      if (chunk.fileName !== filename && !chunk.fileName.endsWith(`/${filename}`)) return null;
      if (!code.includes(FEDERATION_CSS_CHECK)) {
        this.error(`site:link-remote-styles-once: ${filename} no longer contains "${FEDERATION_CSS_CHECK}" (federation plugin changed?)`);
      }
      return { code: code.replace(FEDERATION_CSS_CHECK, () => LINKED_CHECK), map: null };
    },
  };
}
