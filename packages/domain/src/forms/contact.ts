/**
 * What the contact form shows before anything is checked (001 §2, §5): its choices, the comment's
 * length and the fixed source. No zod here: the page renders from this module and loads its
 * schema (`schemas/contact.ts`) when it is first used (docs/decisions/027).
 */
export const CONTACT_QUERY_TYPES = [
  'New Subscriber',
  'Account Update',
  'Technical Support',
  'Sales',
  'Other',
] as const;
export type TContactQueryType = (typeof CONTACT_QUERY_TYPES)[number];

export const CONTACT_PHONE_COUNTRIES = ['United States', 'Canada', 'Mexico'] as const;
export type TContactPhoneCountry = (typeof CONTACT_PHONE_COUNTRIES)[number];

export const CONTACT_COMMENTS_MAX_LENGTH = 2000;
export const CONTACT_SOURCE = 'Web';
