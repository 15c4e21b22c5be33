/// <reference types="vite/client" />
/** This remote's version, from package.json (or MFE_VERSION at build time). */
declare const __MFE_VERSION__: string;
