import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig, type Config } from './config';
import { startServer, type RunningServer } from './server-lifecycle';

// V8's pretenuring sends objects straight to the old generation once most of their allocation site survived two young
// collections. The PostgreSQL driver's rows do during one large read, and from then on every row of every query was
// garbage in the old generation until a full collection. Without it they die young. Set before any request is served.
setFlagsFromString('--no-allocation-site-pretenuring');

const FORCE_EXIT_AFTER_MS = 10_000;

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}

const config = configOrExit();

// The server renders pages with React: without NODE_ENV, React's server modules (loaded later, with the shell's server
// entry) would be its development build, about twice as slow per page and checking every prop. A server started as
// `node api/dist/server.js` is a production server unless NODE_ENV says otherwise. Set after the config is read, so
// the config's rules see NODE_ENV as the operator set it (ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK is refused only with an
// explicit NODE_ENV=production).
process.env.NODE_ENV ??= 'production';

// ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK (refused with NODE_ENV=production): the browser tests start this process and have
// it analyze a site on 127.0.0.1. Tests inside one process pass the same fetcher option to createApp instead.
const websiteFetch = config.analysisTestOnlyAllowLoopback ? { analysis: { website: { testOnlyAllowLoopback: true } } } : {};

let running: RunningServer;
try {
  // The admin health checks run every minute in the server (stopped by close()).
  running = await startServer(config, { adminMonitor: true, ...websiteFetch }, { forceAfterMs: FORCE_EXIT_AFTER_MS - 500 });
} catch (error) {
  console.error('The server could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
}

const { instance, port } = running;
// A promise rejected with nobody awaiting it would end the process (Node's default) and every request with it. Each
// dependency's failures are handled where they occur (db/, lib/redis.ts, pg-listen.ts); one that slips through is a
// bug to fix, logged loudly here, not an outage. An uncaught exception still ends the process: its state is unknown.
process.on('unhandledRejection', (reason) => {
  instance.logger.error({ err: reason }, 'unhandled promise rejection (a bug: a promise nobody awaited failed)');
});
if (config.analysisTestOnlyAllowLoopback) instance.logger.warn('ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK is on: the website analyzer reads loopback addresses (tests only)');
if (!config.adminPassword && !config.adminPasswordHash) instance.logger.warn('ADMIN_PASSWORD is not set: the admin panel cannot be logged into (set it, or ADMIN_PASSWORD_HASH, and restart)');
if (!config.webhookSecret) instance.logger.warn('WEBHOOK_SECRET is not set: POST /api/webhook answers 503 webhook_disabled');
instance.logger.info({ host: config.host, port, dialect: instance.database.dialect }, 'listening');
console.log(`Site running at http://localhost:${port}`);

let stopping = false;
function shutdown(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  instance.logger.info({ signal }, 'shutting down');
  setTimeout(() => {
    instance.logger.error('shutdown took too long; exiting');
    process.exit(1);
  }, FORCE_EXIT_AFTER_MS).unref();
  running.close().then(
    () => {
      instance.logger.info('stopped');
      process.exit(0);
    },
    (error: unknown) => {
      instance.logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}

process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
