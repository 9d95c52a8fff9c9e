import { defineOperation } from './operation';

/** Sends an authentication code by SMS; delivery arrives with the notifications issue. */
export const authCode = defineOperation({
  name: 'AuthCode',
  decode: (raw) => ({ code: raw.string('code'), phone: raw.string('phone') }),
  run: () => undefined,
});
