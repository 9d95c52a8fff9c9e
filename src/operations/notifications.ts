import { enqueueOrRehearse, newDeliveryReference } from '../delivery/outbox';
import { RateLimitReached, RuleViolation } from '../lib/rule-violation';
import { forwardToPartner } from '../federation/forward-call';
import { queueMarkNotifications } from '../notifications/mark-notifications';
import { callerKeyOf, countAgainstLimits, MINUTE_MS, pushDeviceLimit } from '../rate-limits/rate-limit';
import { routeForSchool } from '../federation/school-registry';
import type { SiblingSchool } from '../federation/sibling-schools';
import { enabledDevice } from '../store/queries/directory';
import { absenceTypeName } from '../store/queries/school-lists';
import { inTransaction } from '../store/session';
import { identifier } from './identifier';
import { defineOperation, type OperationContext } from './operation';
import { BASE_URL, IDENTIFIER, NOTES } from './policy-rows';

/**
 * Sends the notes as a push to the device registered under deviceId for the application. A device
 * that is not registered (or disabled), or whose guardian the caller's scope does not reach, is
 * accepted and dropped with the same answer, in the same time (the push is sealed and inserted, and
 * the insert taken back). Notes are bounded in length, and each sender is rate limited.
 */
export const pushNotificationToGateway = defineOperation('PushNotificationToGateway', {
  policy: {
    group: 'notifications',
    audit: 'shown',
    effect: 'sends',
    bounds: { applicationID: 256, senderId: 256, deviceId: 512, notes: NOTES, notes_type: 256 },
    records: { applicationID: 'application', deviceId: 'device' },
  },
  decode: ({ applicationID, senderId, deviceId, notes, notes_type }) => ({
    applicationId: applicationID ?? '',
    senderId: senderId ?? '',
    deviceId: deviceId ?? '',
    notes,
    notesType: notes_type ?? '',
  }),
  run: async ({ applicationId, senderId, deviceId, notes, notesType }, context) => {
    const settings = context.notificationSettings;
    if (notes === null || notes.trim() === '') throw new RuleViolation('notes must not be empty.');
    if ([...notes].length > settings.pushNotesMaxLength) {
      throw new RuleViolation(`notes must be at most ${settings.pushNotesMaxLength} characters long.`);
    }
    const limits = [
      { key: `push:sender:${senderId}`, limit: settings.pushPerSenderPerMinute, windowMs: MINUTE_MS },
      { key: `push:${callerKeyOf(context.call)}`, limit: settings.pushPerCallerPerMinute, windowMs: MINUTE_MS },
      // Counted for the device asked for, registered or not, so that the limit tells no one which are.
      pushDeviceLimit(applicationId, deviceId, settings.pushPerDevicePerMinute),
    ];
    const reference = newDeliveryReference();
    const reached = await context.visibility.pushableGuardians();
    const outcome = await inTransaction(context.store, async (transaction) => {
      const exceeded = await countAgainstLimits(transaction, limits, context.now);
      if (exceeded) return exceeded;
      const registered = await enabledDevice(transaction, applicationId, deviceId);
      // A device out of the caller's reach is one it cannot know of: answered, and rehearsed, as an unknown one.
      const device =
        registered && (reached === undefined || reached.has(registered.guardianId)) ? registered : undefined;
      const content = { title: notesType, body: notes, data: { notesType, senderId } };
      // For a device that is not registered the push is rehearsed, addressed to no device.
      const message = device
        ? { channel: 'push' as const, recipient: device.pushToken, deviceId: device.id, content }
        : { channel: 'push' as const, recipient: deviceId, deviceId: null, content };
      await enqueueOrRehearse(transaction, message, device !== undefined, reference, context.now, context.sealer);
      return 'accepted';
    });
    if (typeof outcome === 'object') {
      const from = ['this sender', 'this caller', 'to this device'][limits.indexOf(outcome)];
      const whose = from.startsWith('to ') ? from : `from ${from}`;
      throw new RateLimitReached(`Too many notifications ${whose}; try again in a minute.`);
    }
    // Every accepted request tells the worker, which looks once the answer is sent (and finds
    // nothing for a dropped one), so that the two kinds of request differ in nothing.
    context.outboxChanged();
    return reference;
  },
});

/** Runs the operation at the partner school's instance, for that school, with the caller's other parameters. */
function forwardToSchool(
  route: { readonly baseUrl: string; readonly sibling?: SiblingSchool },
  operationName: 'SendMarkNotes' | 'GetNameAbsenceType',
  parameters: Record<string, string | null>,
  context: OperationContext,
): Promise<unknown> {
  // A rehearsal sends nothing: the partner would act on it. Its count is then 0 (documented in migration.md).
  if (context.rehearsal && operationName === 'SendMarkNotes') return Promise.resolve(0);
  const partnerBaseUrl = route.baseUrl;
  const target = { partnerBaseUrl, endpointPath: context.endpointPathOf(operationName), operationName };
  const forwarded = { ...parameters, baseUrlSchool: partnerBaseUrl };
  return forwardToPartner(context.notificationSettings, target, forwarded, route.sibling);
}

/**
 * Mark notifications for an assessment in a class of the school at baseUrlSchool; the result is how many were
 * queued.
 */
export const sendMarkNotes = defineOperation('SendMarkNotes', {
  policy: {
    group: 'notifications',
    audit: 'shown',
    effect: 'sends',
    bounds: { id: IDENTIFIER, id_class: IDENTIFIER, baseUrlSchool: BASE_URL },
    records: { id_class: 'notified-class' },
  },
  decode: (parameters) => ({
    parameters,
    assessmentId: identifier(parameters.id),
    classId: identifier(parameters.id_class),
  }),
  run: async ({ parameters, assessmentId, classId }, context) => {
    const route = routeForSchool(
      parameters.baseUrlSchool,
      context.notificationSettings,
      context.call,
      context.siblingSchools,
    );
    if (route.kind === 'partner') {
      const queued = await forwardToSchool(route, 'SendMarkNotes', parameters, context);
      if (typeof queued !== 'number') {
        throw new RuleViolation(`The partner school at ${route.baseUrl} answered without a count.`);
      }
      return queued;
    }
    if (assessmentId === undefined || classId === undefined) return 0;
    // Only the school, or a teacher of the class, notifies its guardians; anyone else as of an unknown class.
    if (!(await context.visibility.mayNotifyClass(classId))) return 0;
    context.touched('class', classId);
    const settings = context.notificationSettings;
    const callerLimit = {
      key: `mark-notes:${callerKeyOf(context.call)}`,
      limit: settings.markNotesPerCallerPerMinute,
      windowMs: MINUTE_MS,
    };
    const queued = await queueMarkNotifications(context.store, { assessmentId, classId }, context, {
      caller: callerLimit,
      perDevicePerMinute: settings.pushPerDevicePerMinute,
    });
    if (queued === 'limited')
      throw new RateLimitReached('Too many mark notifications from this caller; try again in a minute.');
    if (queued > 0) context.outboxChanged();
    return queued;
  },
});

/** The name of an absence type in the school at baseUrlSchool; an unknown id gives an empty result. */
export const getNameAbsenceType = defineOperation('GetNameAbsenceType', {
  policy: {
    group: 'notifications',
    audit: 'none',
    effect: 'reads',
    bounds: { id: IDENTIFIER, baseUrlSchool: BASE_URL },
    records: {},
  },
  decode: (parameters) => ({ parameters, absenceTypeId: identifier(parameters.id) }),
  run: async ({ parameters, absenceTypeId }, context) => {
    const route = routeForSchool(
      parameters.baseUrlSchool,
      context.notificationSettings,
      context.call,
      context.siblingSchools,
    );
    if (route.kind === 'partner') {
      const name = await forwardToSchool(route, 'GetNameAbsenceType', parameters, context);
      return typeof name === 'string' ? name : undefined;
    }
    return absenceTypeId === undefined ? undefined : absenceTypeName(context.store, absenceTypeId);
  },
});
