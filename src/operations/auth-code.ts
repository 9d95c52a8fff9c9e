import { enqueueMessages, newDeliveryReference } from '../delivery/outbox';
import { normalisePhone } from '../notifications/phone-number';
import { countAgainstLimits, HOUR_MS, MINUTE_MS } from '../notifications/rate-limit';
import { isDirectoryPhone } from '../notifications/school-directory';
import { defineOperation, OperationError } from './operation';

/**
 * Sends "verification code {code}" by SMS, but only to a number in the school directory; any
 * other number is accepted and dropped with the same answer, so the operation tells no one who
 * is registered. The rate limits count every request for a number, registered or not, for the
 * same reason. The code itself is only ever in the sealed outbox payload.
 */
export const authCode = defineOperation({
  name: 'AuthCode',
  decode: (raw) => ({ code: raw.string('code'), phone: raw.string('phone') }),
  run: async ({ code, phone }, context) => {
    const settings = context.config.notifications;
    if (code === null || !/^[0-9]{4,8}$/.test(code))
      throw new OperationError('rule', 'code must be 4 to 8 digits (0-9).');
    const number = phone === null ? undefined : normalisePhone(phone, settings.defaultCountryCode);
    if (!number)
      throw new OperationError(
        'rule',
        'phone is not a phone number: give it in international form (+9665…) or national form (05…).',
      );
    const reference = newDeliveryReference();
    const outcome = await context.db.transaction().execute(async (transaction) => {
      const exceeded = await countAgainstLimits(
        transaction,
        context.engine,
        [
          { key: `auth-code:phone:${number}`, limit: settings.authCodePerPhonePerMinute, windowMs: MINUTE_MS },
          { key: `auth-code:phone:${number}`, limit: settings.authCodePerPhonePerHour, windowMs: HOUR_MS },
          {
            key: `auth-code:caller:${context.callerAddress}`,
            limit: settings.authCodePerCallerPerHour,
            windowMs: HOUR_MS,
          },
        ],
        context.now,
      );
      if (exceeded) return exceeded.key.startsWith('auth-code:caller:') ? 'caller-limit' : 'phone-limit';
      if (!(await isDirectoryPhone(transaction, number))) return 'dropped';
      await enqueueMessages(
        transaction,
        [{ channel: 'sms', recipient: number, content: { text: `verification code ${code}` } }],
        reference,
        context.now,
        context.sealer,
      );
      return 'queued';
    });
    if (outcome === 'phone-limit')
      throw new OperationError(
        'rule',
        'Too many authentication codes were requested for this phone number; try again later.',
      );
    if (outcome === 'caller-limit')
      throw new OperationError(
        'rule',
        'Too many authentication codes were requested from this address; try again later.',
      );
    if (outcome === 'queued') context.outboxChanged();
    return reference;
  },
});
