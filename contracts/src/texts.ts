/** User-facing texts of SPEC §2 and §8 that more than one part of the product shows. */
export const PRODUCT_NAME_DEFAULT = 'Termpaste';

export const TEXTS = {
  notFound: 'Did you forget to add the page to the router?',
  threadNotFound: 'Thread not found [404]',
  userNotFound: 'User not found [404]',
  accessDenied: 'ACCESS DENIED [403]',
  adminRequired: 'Admin privileges required',
  unauthorized: 'Unauthorized',
  loggedOut: 'You are logged out. Logging in again...',
  validationTitle: 'Validation Error',
  validationText: 'Please fill in all fields',
  moduleOffline: 'MODULE OFFLINE',
  landingTagline: 'Share your pastes with the underground.',
} as const;
