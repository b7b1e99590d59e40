import { SSO_ERROR_CODES, SSO_ERROR_MESSAGES, SSO_SCREEN_TEXTS, ssoErrorMessage } from './sso.js';

describe('ssoErrorMessage (what the screens say for ?sso_error=)', () => {
  it.each(SSO_ERROR_CODES)('gives the message of %s', (code) => {
    expect(ssoErrorMessage(code)).toBe(SSO_ERROR_MESSAGES[code]);
  });

  it.each(['quantum_flux', 'toString', '__proto__', 'PROVIDER_ERROR'])(
    'gives the generic line for a code it does not know (%s)',
    (code) => {
      expect(ssoErrorMessage(code)).toBe(SSO_SCREEN_TEXTS.unknownError);
    },
  );

  it.each([null, undefined, ''])('gives nothing without a code (%p)', (code) => {
    expect(ssoErrorMessage(code)).toBeNull();
  });
});
