// The contact form's limits, apart from its zod schema (contact.ts): the form renders them (maxLength, the
// character counter) on first paint, while zod loads only when the visitor starts using the form.

/** Maximum lengths of the contact form's fields: generous for people, small enough to refuse abuse. */
export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  company: 120,
  subject: 150,
  message: 5000,
} as const;

/** A message shorter than this asks for a little more detail: 'Hi' gives the owner nothing to answer. */
export const CONTACT_MESSAGE_MIN = 10;

/** What the form says of an address that is no e-mail address (the schema's message; also for one only the browser refuses). */
export const CONTACT_EMAIL_INVALID = 'Enter a valid email address';

export type ContactField = 'name' | 'email' | 'company' | 'subject' | 'message';
