import { enqueueOrRehearse, newDeliveryReference } from '../delivery/outbox';
import { RateLimitReached, RuleViolation } from '../lib/rule-violation';
import { readPhoneNumber } from '../lib/phone-number';
import { callerKeyOf, countAgainstLimits, HOUR_MS, MINUTE_MS } from '../rate-limits/rate-limit';
import { isDirectoryPhone } from '../store/queries/directory';
import { inTransaction } from '../store/session';
import { defineOperation } from './operation';

/**
 * Sends "verification code {code}" by SMS, but only to a valid number (for the school's region,
 * see phone-number.ts) in the school directory; any other number is accepted and dropped with the
 * same answer, in the same time (the message is
 * sealed and inserted, and the insert taken back), so the operation tells no one who is
 * registered. The rate limits count every request for a number, registered or not, for the same
 * reason. The code itself is only ever in the sealed outbox payload.
 */
export const authCode = defineOperation('AuthCode', {
  policy: { group: 'auth-code', audit: 'shown', effect: 'sends', bounds: { code: 16, phone: 32 }, records: {} },
  decode: ({ code, phone }) => ({ code, phone }),
  run: async ({ code, phone }, context) => {
    const settings = context.notificationSettings;
    if (code === null || !/^[0-9]{4,8}$/.test(code)) throw new RuleViolation('code must be 4 to 8 digits (0-9).');
    const reading = phone === null ? undefined : readPhoneNumber(phone, settings.defaultCountryCode);
    if (!reading) {
      throw new RuleViolation(
        'phone is not a phone number: give it in international form (+9665…) or national form (05…).',
      );
    }
    const number = reading.number;
    const callerKey = `auth-code:${callerKeyOf(context.call)}`;
    const reference = newDeliveryReference();
    const outcome = await inTransaction(context.store, async (transaction) => {
      const exceeded = await countAgainstLimits(
        transaction,
        [
          { key: `auth-code:phone:${number}`, limit: settings.authCodePerPhonePerMinute, windowMs: MINUTE_MS },
          { key: `auth-code:phone:${number}`, limit: settings.authCodePerPhonePerHour, windowMs: HOUR_MS },
          { key: callerKey, limit: settings.authCodePerCallerPerHour, windowMs: HOUR_MS },
        ],
        context.now,
      );
      if (exceeded) return exceeded.key === callerKey ? 'caller-limit' : 'phone-limit';
      // A number that is not valid (a foreign one without its country code) is no one's: never texted.
      const registered = reading.valid && (await isDirectoryPhone(transaction, number));
      const message = { channel: 'sms' as const, recipient: number, content: { text: `verification code ${code}` } };
      await enqueueOrRehearse(transaction, message, registered, reference, context.now, context.sealer);
      return 'accepted';
    });
    if (outcome === 'phone-limit') {
      throw new RateLimitReached(
        'Too many authentication codes were requested for this phone number; try again later.',
      );
    }
    if (outcome === 'caller-limit') {
      const from = callerKey.startsWith('auth-code:address:') ? 'this address' : 'this caller';
      throw new RateLimitReached(`Too many authentication codes were requested from ${from}; try again later.`);
    }
    // Every accepted request tells the worker, which looks once the answer is sent (and finds
    // nothing for a dropped one), so that the two kinds of request differ in nothing.
    context.outboxChanged();
    return reference;
  },
});
