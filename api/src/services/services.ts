import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { createEventsRepository } from '../db/repositories/events-repository';
import type { Config } from '../config';
import { createContactRepository } from '../db/repositories/contact-repository';
import type { Clock } from '../lib/clock';
import { createLogger, type Logger } from '../lib/logger';
import { createContactService, type ContactService } from './contact-service';
import { createSmtpMailer } from './mailer';
import { createEventService, type EventService } from './event-service';
import { createPostsRepository, createWebhookDeliveriesRepository } from '../db/repositories/posts-repository';
import { createPostService, type PostService } from './post-service';
import { createWebhookService, type WebhookService } from './webhook-service';

/** Every domain service the routes call. Built once per app; add a service here. */
export interface Services {
  events: EventService;
  contact: ContactService;
  posts: PostService;
  webhook: WebhookService;
}

export function createServices(deps: {
  db: Kysely<Database>;
  clock: Clock;
  config?: Pick<Config, 'smtpUrl' | 'contactEmailTo' | 'mailFrom'> & Partial<Pick<Config, 'webhookSecret' | 'publicOrigin'>>;
  logger?: Logger;
}): Services {
  const events = createEventsRepository(deps.db);
  const posts = createPostService({ posts: createPostsRepository(deps.db), clock: deps.clock });
  return {
    posts,
    webhook: createWebhookService({
      secret: deps.config?.webhookSecret,
      posts,
      deliveries: createWebhookDeliveriesRepository(deps.db),
      clock: deps.clock,
      publicOrigin: deps.config?.publicOrigin ?? 'http://localhost:3000',
    }),
    events: createEventService({ events, clock: deps.clock }),
    contact: createContactService({
      messages: createContactRepository(deps.db),
      clock: deps.clock,
      logger: deps.logger ?? createLogger({ level: 'silent' }),
      mailer: deps.config?.smtpUrl ? createSmtpMailer(deps.config.smtpUrl) : undefined,
      mailTo: deps.config?.contactEmailTo ?? 'hello@trivalleyai.com',
      mailFrom: deps.config?.mailFrom ?? 'Tri-Valley AI website <no-reply@trivalleyai.com>',
    }),
  };
}
