import { describe, expect, it } from 'vitest';
import { isLinkLocalOrMetadataHost, WEBHOOK_MESSAGES, webhookEndpointCreateSchema, webhookEndpointUpdateSchema } from '../webhooks-out';

const messagesOf = (url: string) => {
  const parsed = webhookEndpointCreateSchema.safeParse({ url, events: ['lead.created'] });
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('webhook endpoint URLs: link-local and cloud metadata targets', () => {
  it('refuses every way of writing a metadata address or name, in the form and the API alike', () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.0.1:8080/x',
      // The URL parser turns these into 169.254.169.254: the check sees what would be connected to.
      'http://2852039166/',
      'http://0xA9FEA9FE/',
      'http://0251.0376.0251.0376/',
      'http://169.254.169.254./',
      'http://[fe80::1]/',
      'http://[febf:ffff::1]/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::169.254.169.254]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://100.100.100.200/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://METADATA.google.internal./computeMetadata/v1/',
      'http://metadata/computeMetadata/v1/',
      'http://instance-data/latest/',
      'https://instance-data.ec2.internal/latest/',
    ]) {
      expect(messagesOf(url), url).toEqual([WEBHOOK_MESSAGES.urlMetadata]);
    }
    expect(webhookEndpointUpdateSchema.safeParse({ url: 'http://169.254.169.254/' }).success).toBe(false);
  });

  it('leaves other addresses to the server (private ones depend on WEBHOOK_ALLOW_PRIVATE_TARGETS)', () => {
    for (const url of [
      'https://n8n.example.com/webhook/site',
      'http://10.0.0.5/hook',
      'http://192.168.1.20:5678/webhook/x',
      'http://127.0.0.1:5678/hook',
      'http://169.253.255.255/',
      'http://169.255.0.1/',
      'http://[fec0::1]/',
      'http://[fe00::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://[fd00:ec2::253]/',
      'http://metadata.example.com/',
      'http://n8n:5678/webhook/x',
    ]) {
      expect(messagesOf(url), url).toEqual([]);
    }
  });

  it('reads addresses as resolvers and ipaddr.js write them', () => {
    expect(isLinkLocalOrMetadataHost('::ffff:169.254.169.254')).toBe(true);
    expect(isLinkLocalOrMetadataHost('0:0:0:0:0:ffff:a9fe:a9fe')).toBe(true);
    expect(isLinkLocalOrMetadataHost('fe80::1%eth0')).toBe(true);
    expect(isLinkLocalOrMetadataHost('fd00:ec2:0:0:0:0:0:254')).toBe(true);
    expect(isLinkLocalOrMetadataHost('2001:db8::1')).toBe(false);
    expect(isLinkLocalOrMetadataHost('::1')).toBe(false);
    expect(isLinkLocalOrMetadataHost('1::2::3')).toBe(false);
    expect(isLinkLocalOrMetadataHost('256.1.1.1')).toBe(false);
  });
});
