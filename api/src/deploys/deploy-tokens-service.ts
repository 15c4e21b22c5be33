import { createHash, randomBytes } from 'node:crypto';
import {
  DEPLOY_MESSAGES,
  DEPLOY_TOKEN_LIMITS,
  type AppName,
  type DeployToken,
  type DeployTokenCreate,
  type DeployTokenCreated,
} from '@site/contracts/deploys';
import type { Clock } from '../lib/clock';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../lib/domain-errors';
import type { Logger } from '../lib/logger';
import type { DeployTokensRepository, StoredDeployToken } from './deploy-tokens-repository';

/** The ids this service issues: `dtk_` and 16 hex digits. */
const TOKEN_ID = /^dtk_[0-9a-f]{16}$/;

/*
 * Deploy tokens (issue 33): what the admin hands to a team's CI so it may deploy the apps the token names over HTTP.
 * The token is shown once, in the answer that created it; only its SHA-256 is stored, so a copy of the database
 * (a backup, a leaked dump) deploys nothing.
 */

/** Who a deploy request comes from, once its token checked out. */
export interface DeployCaller {
  id: string;
  name: string;
  apps: AppName[];
}

export interface DeployTokenService {
  /** Issues a token for `apps`; the answer is the only place the token is ever shown. */
  create(input: DeployTokenCreate): Promise<DeployTokenCreated>;
  /** Live tokens, newest first (never the token or its hash). */
  list(): Promise<{ tokens: DeployToken[] }>;
  revoke(id: string): Promise<void>;
  /**
   * Checks a request's `Authorization: Bearer <token>` for deploying `app`: 401 without a token or with one that is
   * not live, 403 when it was not issued for `app`. `from` is the caller's address (logged with each refusal, and
   * kept as the token's last use).
   */
  authenticate(request: { authorization: string | undefined; app: AppName; from: string | null }): Promise<DeployCaller>;
}

const TOKEN_PREFIX = 'dpl_';
const BEARER = /^Bearer +(\S+) *$/i;

const newToken = () => `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
const newId = () => `dtk_${randomBytes(8).toString('hex')}`;
export const hashDeployToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const toToken = (stored: StoredDeployToken): DeployToken => ({
  id: stored.id,
  name: stored.name,
  apps: stored.apps,
  createdAt: stored.createdAt,
  lastUsedAt: stored.lastUsedAt,
  lastUsedFrom: stored.lastUsedFrom,
});

export function createDeployTokenService(deps: { repository: DeployTokensRepository; clock: Clock; logger: Logger }): DeployTokenService {
  const { repository, clock, logger } = deps;

  // Never the token, nor its hash: the address and the token id (when the token is one we issued) are what an
  // owner needs to find who is knocking.
  const refuse = (error: Error, context: { from: string | null; app: AppName; tokenId?: string; reason: string }): never => {
    logger.warn({ deploy: context }, 'deploy token refused');
    throw error;
  };

  return {
    async create({ name, apps }) {
      const token = newToken();
      const stored: StoredDeployToken = {
        id: newId(),
        name,
        apps: [...new Set(apps)],
        tokenHash: hashDeployToken(token),
        createdAt: clock().toISOString(),
        lastUsedAt: null,
        lastUsedFrom: null,
        revokedAt: null,
      };
      // The slot is taken first, then counted: of racing creates past the limit, none stays over it.
      await repository.insert(stored);
      if ((await repository.countLive()) > DEPLOY_TOKEN_LIMITS.tokensMax) {
        await repository.remove(stored.id);
        throw new ConflictError(DEPLOY_MESSAGES.tooMany, { code: 'deploy_token_limit' });
      }
      return { ...toToken(stored), token };
    },

    async list() {
      return { tokens: (await repository.listLive()).map(toToken) };
    },

    async revoke(id) {
      // Only an id this service could have issued reaches the database (a NUL byte is an error to PostgreSQL, not a miss).
      if (!TOKEN_ID.test(id) || !(await repository.revoke(id, clock().toISOString()))) throw new NotFoundError(DEPLOY_MESSAGES.notFound, { code: 'deploy_token_not_found' });
    },

    async authenticate({ authorization, app, from }) {
      const token = BEARER.exec(authorization ?? '')?.[1];
      if (!token) return refuse(new UnauthorizedError(DEPLOY_MESSAGES.missingToken, { code: 'deploy_token_missing' }), { from, app, reason: 'missing' });
      // Looked up by its hash (a unique index): the token is 256 random bits, so what a lookup's timing could tell
      // about a hash prefix helps nobody guess a token.
      const stored = token.startsWith(TOKEN_PREFIX) ? await repository.findByHash(hashDeployToken(token)) : undefined;
      if (!stored) return refuse(new UnauthorizedError(DEPLOY_MESSAGES.badToken, { code: 'deploy_token_invalid' }), { from, app, reason: 'unknown' });
      if (stored.revokedAt) return refuse(new UnauthorizedError(DEPLOY_MESSAGES.badToken, { code: 'deploy_token_invalid' }), { from, app, tokenId: stored.id, reason: 'revoked' });
      if (!stored.apps.includes(app)) {
        // The token is known: the deploy log names it (the error carries its name, never the token).
        return refuse(Object.assign(new ForbiddenError(DEPLOY_MESSAGES.wrongApp(app), { code: 'token_not_for_app' }), { tokenName: stored.name }), { from, app, tokenId: stored.id, reason: 'wrong_app' });
      }
      await repository.markUsed(stored.id, clock().toISOString(), from);
      return { id: stored.id, name: stored.name, apps: stored.apps };
    },
  };
}
