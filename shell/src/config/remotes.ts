/** How long a remote may take to load before its area shows the unavailable message. */
export const REMOTE_LOAD_TIMEOUT_MS = 5000;
