import { version } from '../../package.json';

/** Version of this API build, reported by /api/health. */
export const API_VERSION: string = version;
