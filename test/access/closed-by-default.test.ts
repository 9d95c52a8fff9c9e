import type { RunningService } from '../../src/service';
import {
  addTestCaller,
  BINDINGS,
  basic,
  type RemoteTestSchool,
  remoteCall,
  startRemoteTestSchool,
} from '../support/callers';
import { remoteFetch } from '../support/remote-client';
import { envelope12, NS } from '../support/soap';

/**
 * A fresh service seen from another machine (127.0.0.2, with LOCAL_NETWORKS=127.0.0.1/32): only
 * HelloWorld and the pages answer until the operator names who may call; every refusal is in the
 * binding's own shape and says how to open access; local callers keep everything.
 */
const INFO = '/GetStudentsInformation.asmx';
const HOW_TO = 'school-service callers add';

describe('closed by default', () => {
  let school: RemoteTestSchool;
  let service: RunningService;
  beforeAll(async () => {
    school = await startRemoteTestSchool();
    service = school.service;
  });
  afterAll(() => school.close());

  test.each(BINDINGS)('serves HelloWorld to a remote caller over %s', async (binding) => {
    const response = await remoteCall(service.url, '/GetStudentsNote.asmx', 'HelloWorld', {}, binding);
    expect(response.status).toBe(200);
    expect(response.text).toContain('Hello World');
  });

  test('serves the WSDL, DISCO and help pages to a remote caller', async () => {
    for (const query of ['?WSDL', '?disco', '', '?op=GetStudentInfoById']) {
      expect([query, (await remoteFetch(`${service.url}${INFO}${query}`)).status]).toEqual([query, 200]);
    }
  });

  test("refuses any other operation from a remote caller, in each binding's shape, naming the command", async () => {
    const refusals = await Promise.all(
      BINDINGS.map((binding) => remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, binding)),
    );
    const [soap11, soap12, get, post, json] = refusals;
    expect([soap11.status, soap12.status]).toEqual([500, 500]);
    expect(soap11.text).toContain('<faultcode>soap:Client</faultcode>');
    expect(soap12.text).toContain('<soap:Value>soap:Sender</soap:Value>');
    expect([get.status, post.status, json.status]).toEqual([403, 403, 403]);
    expect(get.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(JSON.parse(json.text)).toEqual({
      Message:
        'Access denied: 127.0.0.2 may not call GetStudentInfoById. ' +
        `The operator lets callers in with the command ${HOW_TO}.`,
      ExceptionType: 'System.UnauthorizedAccessException',
    });
    for (const refusal of refusals) expect(refusal.text).toContain(HOW_TO);
  });

  test('a SOAP 1.2 envelope sent as text/xml is refused in SOAP 1.2, the version its envelope showed', async () => {
    const response = await remoteFetch(`${service.url}${INFO}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      body: envelope12(`<GetStudentInfoById xmlns="${NS}"><StudentId>5</StudentId></GetStudentInfoById>`),
    });
    expect([response.status, response.headers['content-type']]).toEqual([500, 'application/soap+xml; charset=utf-8']);
    expect(response.text).toContain('<soap:Value>soap:Sender</soap:Value>');
    expect(response.text).toContain('Access denied: 127.0.0.2 may not call GetStudentInfoById.');
  });

  test('answers local callers as before', async () => {
    const local = await remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, 'json', {
      from: '127.0.0.1',
    });
    expect(local.status).toBe(200);
    expect(JSON.parse(local.text).d.StudentId).toBe(5);
  });

  test('challenges with Basic (401) once a caller with a secret may call the operation', async () => {
    const secret = await addTestCaller(service.store, { name: 'portal', secret: true, operations: ['queries'] });
    await service.readCallers();
    for (const binding of BINDINGS) {
      const challenged = await remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, binding);
      expect([binding, challenged.status]).toEqual([binding, 401]);
      expect(challenged.headers['www-authenticate']).toBe('Basic realm="school-service", charset="UTF-8"');
      const answered = await remoteCall(service.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, binding, {
        headers: { Authorization: basic('portal', secret as string) },
      });
      expect([binding, answered.status]).toEqual([binding, 200]);
    }
    // An operation no caller with a secret may call is refused outright: a credential would not help.
    const auth = await remoteCall(
      service.url,
      '/AuthCodeSending.asmx',
      'AuthCode',
      { code: '1234', phone: '1' },
      'get',
    );
    expect([auth.status, auth.headers['www-authenticate']]).toEqual([403, undefined]);
  });
});
