import { eventsMigration } from './0001-events';
import { blogMigration } from './0002-blog';
import { contactMessagesMigration } from './0003-contact-messages';
import { analysesMigration } from './0004-analyses';
import { adminMigration } from './0005-admin';
import { leasesMigration } from './0006-leases';
import { releasesMigration } from './0007-releases';
import { indexesMigration } from './0008-indexes';
import { postCountsMigration } from './0009-post-counts';
import { revisionsMigration } from './0010-revisions';
import { outgoingWebhooksMigration } from './0011-outgoing-webhooks';
import { mediaMigration } from './0012-media';
import { webhookAttemptsMigration } from './0013-webhook-attempts';
import { requestIdsMigration } from './0014-request-ids';
import { mediaUsageMigration } from './0015-media-usage';
import { analysisBusinessKeyMigration } from './0016-analysis-business-key';
import { searchMigration } from './0017-search';
import { eventDailyMigration } from './0018-event-daily';
import { analysisOpenedMigration } from './0019-analysis-opened';
import { leadCountsMigration } from './0020-lead-counts';
import { mediaProcessingMigration } from './0021-media-processing';
import { eventDaysRolledMigration } from './0022-event-days-rolled';
import { deploysMigration } from './0023-deploys';
import { publishedOrderMigration } from './0025-published-order';
import { traceContextMigration } from './0026-trace-context';
import type { Migration } from './migration';

/** Every migration, oldest first. A static list, so the esbuild bundle needs no directory scan. */
export const migrations: readonly Migration[] = [eventsMigration, blogMigration, contactMessagesMigration, analysesMigration, adminMigration, leasesMigration, releasesMigration, indexesMigration, postCountsMigration, revisionsMigration, outgoingWebhooksMigration, mediaMigration, webhookAttemptsMigration, requestIdsMigration, mediaUsageMigration, analysisBusinessKeyMigration, searchMigration, eventDailyMigration, analysisOpenedMigration, leadCountsMigration, mediaProcessingMigration, eventDaysRolledMigration, deploysMigration, publishedOrderMigration, traceContextMigration];
