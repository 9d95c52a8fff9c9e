import { enqueueMessages, newDeliveryReference } from '../delivery/outbox';
import { RuleViolation } from '../lib/rule-violation';
import { forwardToPartner } from '../notifications/forward-call';
import { queueMarkNotifications } from '../notifications/mark-notifications';
import { countAgainstLimits, MINUTE_MS } from '../notifications/rate-limit';
import { routeForSchool } from '../notifications/school-registry';
import { enabledDevice } from '../store/queries/directory';
import { absenceTypeName } from '../store/queries/school-lists';
import { inTransaction } from '../store/session';
import { identifier } from './identifier';
import { defineOperation, type OperationContext } from './operation';

/**
 * Sends the notes as a push to the device registered under deviceId for the application. A device
 * that is not registered (or disabled) is accepted and dropped with the same answer. Notes are
 * bounded in length, and each sender is rate limited.
 */
export const pushNotificationToGateway = defineOperation('PushNotificationToGateway', {
  decode: ({ applicationID, senderId, deviceId, notes, notes_type }) => ({
    applicationId: applicationID ?? '',
    senderId: senderId ?? '',
    deviceId: deviceId ?? '',
    notes,
    notesType: notes_type ?? '',
  }),
  run: async ({ applicationId, senderId, deviceId, notes, notesType }, context) => {
    const settings = context.notifications;
    if (notes === null || notes.trim() === '') throw new RuleViolation('notes must not be empty.');
    if ([...notes].length > settings.pushNotesMaxLength) {
      throw new RuleViolation(`notes must be at most ${settings.pushNotesMaxLength} characters long.`);
    }
    const reference = newDeliveryReference();
    const outcome = await inTransaction(context.store, async (transaction) => {
      const limit = { key: `push:sender:${senderId}`, limit: settings.pushPerSenderPerMinute, windowMs: MINUTE_MS };
      if (await countAgainstLimits(transaction, [limit], context.now)) return 'limited';
      const device = await enabledDevice(transaction, applicationId, deviceId);
      if (!device) return 'dropped';
      const content = { title: notesType, body: notes, data: { notesType, senderId } };
      const message = { channel: 'push' as const, recipient: device.pushToken, deviceId: device.id, content };
      await enqueueMessages(transaction, [message], reference, context.now, context.sealer);
      return 'queued';
    });
    if (outcome === 'limited')
      throw new RuleViolation('Too many notifications from this sender; try again in a minute.');
    if (outcome === 'queued') context.outboxChanged();
    return reference;
  },
});

/** Runs the operation at the partner school's instance, for that school, with the caller's other parameters. */
function forwardToSchool(
  partnerBaseUrl: string,
  operationName: 'SendMarkNotes' | 'GetNameAbsenceType',
  parameters: Record<string, string | null>,
  context: OperationContext,
): Promise<unknown> {
  const target = { partnerBaseUrl, endpointPath: context.endpointPathOf(operationName), operationName };
  return forwardToPartner(context.notifications, target, { ...parameters, baseUrlSchool: partnerBaseUrl });
}

/** Mark notifications for an assessment in a class of the school at baseUrlSchool; the result is how many were queued. */
export const sendMarkNotes = defineOperation('SendMarkNotes', {
  decode: (parameters) => ({
    parameters,
    assessmentId: identifier(parameters.id),
    classId: identifier(parameters.id_class),
  }),
  run: async ({ parameters, assessmentId, classId }, context) => {
    const route = routeForSchool(parameters.baseUrlSchool, context.notifications, context.call);
    if (route.kind === 'partner') {
      const queued = await forwardToSchool(route.baseUrl, 'SendMarkNotes', parameters, context);
      if (typeof queued !== 'number') {
        throw new RuleViolation(`The partner school at ${route.baseUrl} answered without a count.`);
      }
      return queued;
    }
    if (assessmentId === undefined || classId === undefined) return 0;
    const reference = newDeliveryReference();
    const queued = await queueMarkNotifications(
      context.store,
      assessmentId,
      classId,
      reference,
      context.now,
      context.sealer,
    );
    if (queued > 0) context.outboxChanged();
    return queued;
  },
});

/** The name of an absence type in the school at baseUrlSchool; an unknown id gives an empty result. */
export const getNameAbsenceType = defineOperation('GetNameAbsenceType', {
  decode: (parameters) => ({ parameters, absenceTypeId: identifier(parameters.id) }),
  run: async ({ parameters, absenceTypeId }, context) => {
    const route = routeForSchool(parameters.baseUrlSchool, context.notifications, context.call);
    if (route.kind === 'partner') {
      const name = await forwardToSchool(route.baseUrl, 'GetNameAbsenceType', parameters, context);
      return typeof name === 'string' ? name : undefined;
    }
    return absenceTypeId === undefined ? undefined : absenceTypeName(context.store, absenceTypeId);
  },
});
