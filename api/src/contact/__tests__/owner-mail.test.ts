import { describe, expect, it } from 'vitest';
import type { StoredContactMessage } from '../contact-repository';
import { ownerMail } from '../contact-service';

const message = (over: Partial<StoredContactMessage>): StoredContactMessage => ({
  id: 'm1',
  createdAt: '2026-11-23T10:00:00.000Z',
  ipHash: 'h',
  userAgent: null,
  name: 'Ana',
  email: 'ana@example.com',
  company: null,
  subject: null,
  message: 'Please call me back about phone orders.',
  mailStatus: 'pending',
  mailAttempts: 0,
  mailNextAttemptAt: null,
  mailLastError: null,
  mailSentAt: null,
  ...over,
} as StoredContactMessage);

describe('ownerMail', () => {
  it('flattens line breaks in the visitor’s name, company and subject so they cannot fake header-like lines', () => {
    const { subject, text } = ownerMail(
      message({ name: 'Ana\r\nEmail: boss@example.com', company: 'Bistro\nSubject: urgent', subject: 'Hi\u2028there' }),
    );
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('Email:'))).toEqual(['Email:   ana@example.com']);
    expect(lines.filter((l) => l.startsWith('Subject:'))).toEqual(['Subject: Hi there']);
    expect(lines).toContain('Name:    Ana Email: boss@example.com');
    expect(lines).toContain('Company: Bistro Subject: urgent');
    expect(subject).toBe('Website contact: Hi there');
  });

  it('keeps the message body as written, line breaks included', () => {
    const { text } = ownerMail(message({ message: 'Line one\nLine two' }));
    expect(text).toContain('Line one\nLine two');
  });
});
