import { enqueueMessages, newDeliveryReference } from '../delivery/outbox';
import { forwardToPartner } from '../notifications/forward-call';
import { queueMarkNotifications } from '../notifications/mark-notifications';
import { countAgainstLimits, MINUTE_MS } from '../notifications/rate-limit';
import { routeForSchool } from '../notifications/school-registry';
import { defineOperation, OperationError } from './operation';

/**
 * Sends the notes as a push to the device registered under deviceId for the application. A device
 * that is not registered (or disabled) is accepted and dropped with the same answer. Notes are
 * bounded in length, and each sender is rate limited.
 */
export const pushNotificationToGateway = defineOperation({
  name: 'PushNotificationToGateway',
  decode: (raw) => ({
    applicationId: raw.string('applicationID'),
    senderId: raw.string('senderId'),
    deviceId: raw.string('deviceId'),
    notes: raw.string('notes'),
    notesType: raw.string('notes_type'),
  }),
  run: async ({ applicationId, senderId, deviceId, notes, notesType }, context) => {
    const settings = context.config.notifications;
    if (notes === null || notes.trim() === '') throw new OperationError('rule', 'notes must not be empty.');
    if ([...notes].length > settings.pushNotesMaxLength)
      throw new OperationError('rule', `notes must be at most ${settings.pushNotesMaxLength} characters long.`);
    const reference = newDeliveryReference();
    const outcome = await context.db.transaction().execute(async (transaction) => {
      const exceeded = await countAgainstLimits(
        transaction,
        context.engine,
        [{ key: `push:sender:${senderId ?? ''}`, limit: settings.pushPerSenderPerMinute, windowMs: MINUTE_MS }],
        context.now,
      );
      if (exceeded) return 'limited';
      const device = await transaction
        .selectFrom('devices')
        .select(['id', 'push_token'])
        .where('application_id', '=', applicationId ?? '')
        .where('device_id', '=', deviceId ?? '')
        .where('enabled', '=', 1)
        .executeTakeFirst();
      if (!device) return 'dropped';
      const content = {
        title: notesType ?? '',
        body: notes,
        data: { notesType: notesType ?? '', senderId: senderId ?? '' },
      };
      await enqueueMessages(
        transaction,
        [{ channel: 'push', recipient: device.push_token, deviceId: device.id, content }],
        reference,
        context.now,
        context.sealer,
      );
      return 'queued';
    });
    if (outcome === 'limited')
      throw new OperationError('rule', 'Too many notifications from this sender; try again in a minute.');
    if (outcome === 'queued') context.outboxChanged();
    return reference;
  },
});

/** Mark notifications for an assessment in a class of the school at baseUrlSchool; the result is how many were queued. */
export const sendMarkNotes = defineOperation({
  name: 'SendMarkNotes',
  decode: (raw) => ({
    id: raw.string('id'),
    assessmentId: raw.identifier('id'),
    idClass: raw.string('id_class'),
    classId: raw.identifier('id_class'),
    baseUrlSchool: raw.string('baseUrlSchool'),
  }),
  run: async ({ id, assessmentId, idClass, classId, baseUrlSchool }, context) => {
    const route = routeForSchool(baseUrlSchool, context);
    if (route.kind === 'partner') {
      const queued = await forwardToPartner(context, route.baseUrl, 'SendMarkNotes', {
        id,
        id_class: idClass,
        baseUrlSchool: route.baseUrl,
      });
      if (typeof queued !== 'number')
        throw new OperationError('rule', `The partner school at ${route.baseUrl} answered without a count.`);
      return queued;
    }
    if (assessmentId === undefined || classId === undefined) return 0;
    const queued = await queueMarkNotifications(
      context.db,
      assessmentId,
      classId,
      newDeliveryReference(),
      context.now,
      context.sealer,
    );
    if (queued > 0) context.outboxChanged();
    return queued;
  },
});

/** The name of an absence type in the school at baseUrlSchool; an unknown id gives an empty result. */
export const getNameAbsenceType = defineOperation({
  name: 'GetNameAbsenceType',
  decode: (raw) => ({
    id: raw.string('id'),
    absenceTypeId: raw.identifier('id'),
    baseUrlSchool: raw.string('baseUrlSchool'),
  }),
  run: async ({ id, absenceTypeId, baseUrlSchool }, context) => {
    const route = routeForSchool(baseUrlSchool, context);
    if (route.kind === 'partner') {
      const name = await forwardToPartner(context, route.baseUrl, 'GetNameAbsenceType', {
        id,
        baseUrlSchool: route.baseUrl,
      });
      return typeof name === 'string' ? name : undefined;
    }
    if (absenceTypeId === undefined) return undefined;
    const row = await context.db
      .selectFrom('absence_types')
      .select('name_ar')
      .where('id', '=', absenceTypeId)
      .executeTakeFirst();
    return row?.name_ar;
  },
});
