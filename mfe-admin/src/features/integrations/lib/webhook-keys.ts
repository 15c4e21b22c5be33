/** The integrations feature's cache keys: invalidating `deliveries(id)` reaches that endpoint's attempts too. */
export const webhookKeys = {
  list: () => ['webhooks', 'list'] as const,
  deliveries: (endpointId: string) => ['webhooks', endpointId, 'deliveries'] as const,
  /** A delivery's attempts, for as many as it has had (a new attempt is a new answer). */
  attempts: (endpointId: string, deliveryId: string, count: number) => ['webhooks', endpointId, 'deliveries', deliveryId, 'attempts', count] as const,
};
