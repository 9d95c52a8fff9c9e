import { defineOperation } from './operation';

/** Push and mark notifications; delivery arrives with the notifications issue. */
export const pushNotificationToGateway = defineOperation({
  name: 'PushNotificationToGateway',
  decode: (raw) => ({
    applicationId: raw.string('applicationID'),
    senderId: raw.string('senderId'),
    deviceId: raw.string('deviceId'),
    notes: raw.string('notes'),
    notesType: raw.string('notes_type'),
  }),
  run: () => undefined,
});

export const sendMarkNotes = defineOperation({
  name: 'SendMarkNotes',
  decode: (raw) => ({ assessmentId: raw.string('id'), classId: raw.string('id_class'), baseUrlSchool: raw.string('baseUrlSchool') }),
  run: () => undefined,
});

export const getNameAbsenceType = defineOperation({
  name: 'GetNameAbsenceType',
  decode: (raw) => ({ absenceTypeId: raw.string('id'), baseUrlSchool: raw.string('baseUrlSchool') }),
  run: () => undefined,
});
