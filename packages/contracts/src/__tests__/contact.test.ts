import { describe, expect, it } from 'vitest';
import { CONTACT_LIMITS, contactFieldErrors, contactRequestSchema } from '../contact';

describe('contactRequestSchema', () => {
  it('accepts the required fields and drops empty optional ones', () => {
    const r = contactRequestSchema.parse({ name: ' Ana ', email: 'ana@example.com', company: '', subject: '', message: ' Please call me back. ' });
    expect(r).toEqual({ name: 'Ana', email: 'ana@example.com', company: undefined, subject: undefined, message: 'Please call me back.' });
  });

  it('names every missing or invalid field', () => {
    const r = contactRequestSchema.safeParse({ name: '  ', email: 'not-an-email', message: '' });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(contactFieldErrors(r.error)).toEqual({
      name: 'Name is required',
      email: 'Enter a valid email address',
      message: 'Message is required',
    });
  });

  it('refuses over-long fields with a visible message', () => {
    const r = contactRequestSchema.safeParse({ name: 'A', email: 'a@b.co', message: 'x'.repeat(CONTACT_LIMITS.message + 1) });
    expect(r.success).toBe(false);
    if (!r.success) expect(contactFieldErrors(r.error).message).toBe('Message must be at most 5000 characters');
  });

  it('asks for a little more detail when the message is under 10 characters', () => {
    const r = contactRequestSchema.safeParse({ name: 'Ana', email: 'ana@example.com', message: ' Call me ' });
    expect(r.success).toBe(false);
    if (!r.success) expect(contactFieldErrors(r.error).message).toBe('Please add a little more detail (at least 10 characters)');
  });
});
