import { type Catalog, loadCatalog } from '../../src/contract/catalog';
import { WSDL_DIRECTORY } from '../../src/contract/wsdl-directory';
import { RequestRouter } from '../../src/server/request-target';

let router: RequestRouter;
let catalog: Catalog;

beforeAll(async () => {
  catalog = await loadCatalog(WSDL_DIRECTORY);
  router = new RequestRouter(catalog);
});

const JSON_TYPE = 'application/json; charset=utf-8';
const FORM = 'application/x-www-form-urlencoded';

describe('resolving a request to its target, once', () => {
  test('a POST to an endpoint is a SOAP call to it, whatever its Content-Type, and its target is made once', () => {
    const target = router.resolve('POST', '/GetStudentsNote.asmx', 'text/xml');
    expect(target).toMatchObject({ kind: 'soap', endpointPath: '/GetStudentsNote.asmx' });
    expect(target.kind === 'soap' && target.endpoint).toBe(catalog.endpointByPath('/GetStudentsNote.asmx'));
    expect(router.resolve('POST', '/GetStudentsNote.asmx', 'application/json')).toBe(target);
  });

  test('an operation call names its operation, decoded, with its query; JSON only for a known operation', () => {
    const get = router.resolve('GET', '/GetStudentsInformation.asmx/GetStudentInfoById?StudentId=5', undefined);
    expect(get).toMatchObject({ kind: 'http', operationName: 'GetStudentInfoById', query: 'StudentId=5' });
    expect(get.kind === 'http' && get.operation?.name).toBe('GetStudentInfoById');
    const json = router.resolve('POST', '/GetStudentsNote.asmx/HelloWorld', JSON_TYPE);
    expect(json.kind === 'json' && json.operation.name).toBe('HelloWorld');
    expect(router.resolve('POST', '/GetStudentsNote.asmx/HelloWorld', FORM).kind).toBe('http');
    // An unknown name is the HTTP binding's to answer, in ASMX's words, even with a JSON body.
    const unknown = router.resolve('POST', '/GetStudentsNote.asmx/Hello%20World', JSON_TYPE);
    expect(unknown).toMatchObject({ kind: 'http', operationName: 'Hello World', operation: undefined });
    expect(router.resolve('GET', '/GetStudentsNote.asmx/%ZZ', undefined)).toMatchObject({ operationName: '%ZZ' });
  });

  test('the OneRoster provider: its token endpoint and all under /ims/oneroster/, under two bounded names', () => {
    expect(router.resolve('POST', '/oauth/token', FORM)).toEqual({ kind: 'oneroster', endpointPath: '/oauth/token' });
    const users = router.resolve('GET', '/ims/oneroster/rostering/v1p2/users/any-id?limit=5', undefined);
    expect(users).toEqual({ kind: 'oneroster', endpointPath: '/ims/oneroster' });
    expect(router.resolve('PUT', '/ims/oneroster/gradebook/v1p2/results/r1', JSON_TYPE).kind).toBe('oneroster');
    expect(router.resolve('GET', '/ims/other', undefined).kind).toBe('page');
  });

  test("ASMX's refusals, the operator's endpoints and the pages", () => {
    expect(router.resolve('DELETE', '/GetStudentsNote.asmx', undefined).kind).toBe('method-not-allowed');
    expect(router.resolve('HEAD', '/GetStudentsNote.asmx/HelloWorld', undefined).kind).toBe('method-not-allowed');
    expect(router.resolve('GET', '/GetStudentsNote.asmx/jsdebug', undefined).kind).toBe('script-proxy');
    expect(router.resolve('GET', '/GetStudentsNote.asmx?WSDL', undefined)).toEqual({
      kind: 'page',
      endpointPath: '/GetStudentsNote.asmx',
      path: '/GetStudentsNote.asmx',
      endpoint: catalog.endpointByPath('/GetStudentsNote.asmx'),
      query: 'WSDL',
    });
    // Any other path is the index's or the 404 page's, which Express is given without its query.
    expect(router.resolve('GET', '/nothing/here?x=1', undefined)).toEqual({
      kind: 'page',
      endpointPath: 'other',
      path: '/nothing/here',
      endpoint: undefined,
      query: 'x=1',
    });
    expect(router.resolve('POST', '/healthz', undefined)).toEqual({ kind: 'operator', endpointPath: '/healthz' });
  });

  test('the endpoint a request is counted under is bounded to the catalog and the operator', () => {
    expect(router.resolve('GET', '/nothing/here?x=1', undefined).endpointPath).toBe('other');
    expect(router.resolve('POST', '/Nope.asmx', 'text/xml').endpointPath).toBe('other');
    expect(router.resolve('GET', '/GetStudentsNote.asmx/a/b', undefined).endpointPath).toBe('/GetStudentsNote.asmx');
    expect(router.resolve('GET', '/status.json', undefined).endpointPath).toBe('/status.json');
  });
});
