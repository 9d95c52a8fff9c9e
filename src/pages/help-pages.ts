import { AUTHORING_NAMESPACE, type Endpoint, type Operation } from '../contract/catalog';
import type { Profile } from '../contract/profile';
import { escapeHtml } from '../wire/html-escape';
import { page } from './html';
import { sampleBlocks } from './samples';

/**
 * The help pages ASMX generates: the service page listing the operations, and an operation page
 * with its test form (HTTP POST) and the four sample blocks.
 */

/** The two paragraphs of ASMX's advice on the default namespace, word for word. */
const NAMESPACE_UNIQUE =
  'Each XML Web service needs a unique namespace in order for client applications to distinguish it from other ' +
  'services on the Web. http://tempuri.org/ is available for XML Web services that are under development, but ' +
  'published XML Web services should use a more permanent namespace.';
const NAMESPACE_YOURS =
  'Your XML Web service should be identified by a namespace that you control. For example, you can use ' +
  "your company's Internet domain name as part of the namespace. Although many XML Web service namespaces look " +
  'like URLs, they ' +
  'need not point to actual resources on the Web. (XML Web service namespaces are URIs.)';

function namespaceNote(namespace: string): string {
  if (namespace !== AUTHORING_NAMESPACE) return '';
  return `
      <span>
        <hr>
        <h3>This web service is using http://tempuri.org/ as its default namespace.</h3>
        <h3>Recommendation: Change the default namespace before the XML Web service is made public.</h3>
        <p class="intro">${NAMESPACE_UNIQUE}</p>
        <p class="intro">${NAMESPACE_YOURS}</p>
      </span>`;
}

/** The service page's first sentence, with ASMX's two spaces. */
const OPERATIONS_INTRO = 'The following operations are supported.  For a formal definition, please review the';

export function serviceHelpPage(endpoint: Endpoint, namespace: string, baseUrl: string): string {
  const file = `${endpoint.name}.asmx`;
  // ASMX lists the operations alphabetically; the WSDL keeps the order of the interface.
  const operations = [...endpoint.operations]
    .sort((a, b) => a.name.localeCompare(b.name, 'en'))
    .map(
      (operation) =>
        `        <li><a href="${escapeHtml(`${file}?op=${operation.name}`)}">${escapeHtml(operation.name)}</a></li>`,
    )
    .join('\n');
  const description = escapeHtml(`${baseUrl}${endpoint.path}?WSDL`);
  return page(
    endpoint.name,
    `      <span>
        <p class="intro">${OPERATIONS_INTRO} <a href="${description}">Service Description</a>. </p>
        <ul>
${operations}
        </ul>
      </span>${namespaceNote(namespace)}`,
  );
}

/**
 * Whether an operation page shows the HTTP POST test form: to local callers (as ASMX does by
 * default), to everyone, or to no one; where it is not shown, ASMX's sentence stands in its place.
 */
export type TestFormShown = 'form' | 'local-only' | 'off';

const TEST_FORM_SENTENCES: Readonly<Record<Exclude<TestFormShown, 'form'>, string>> = {
  'local-only': 'The test form is only available for requests from the local machine.',
  off: 'The test form is not available on this service.',
};

function testSection(operation: Operation, actionUrl: string, shown: TestFormShown): string {
  if (shown === 'form') return testForm(operation, actionUrl);
  return `      <h3>Test</h3>
      ${TEST_FORM_SENTENCES[shown]}`;
}

const TEST_FORM_TABLE =
  '<table cellspacing="0" cellpadding="4" frame="box" bordercolor="#dcdcdc" rules="none" ' +
  'style="border-collapse: collapse;">';

function testForm(operation: Operation, actionUrl: string): string {
  const rows = operation.parameters
    .map(
      (parameter) => `          <tr>
            <td class="frmtext" style="color: #000000; font-weight: normal;">${escapeHtml(parameter.name)}:</td>
            <td><input class="frmInput" type="text" size="50" name="${escapeHtml(parameter.name)}"></td>
          </tr>`,
    )
    .join('\n');
  return `      <h3>Test</h3>
      To test the operation using the HTTP POST protocol, click the 'Invoke' button.
      <form target="_blank" action="${escapeHtml(actionUrl)}" method="POST">
        ${TEST_FORM_TABLE}
          <tr>
            <td class="frmheader" bgcolor="#dcdcdc" style="border-right: 2px solid white;">Parameter</td>
            <td class="frmheader" bgcolor="#dcdcdc">Value</td>
          </tr>
${rows}
          <tr>
            <td></td>
            <td align="right"><input type="submit" value="Invoke" class="button"></td>
          </tr>
        </table>
      </form>`;
}

export function operationHelpPage(
  endpoint: Endpoint,
  operation: Operation,
  profile: Profile,
  namespace: string,
  baseUrl: string,
  testFormShown: TestFormShown,
): string {
  const file = `${endpoint.name}.asmx`;
  const url = new URL(baseUrl);
  const path = `${url.pathname.replace(/\/$/, '')}${endpoint.path}`;
  const samples = sampleBlocks(operation, operation.results[profile], path, url.host, namespace)
    .map(
      (block) => `      <span>
        <h3>${block.title}</h3>
        <p>${block.introduction}</p>
        <pre>${block.request}</pre>
        <pre>${block.response}</pre>
      </span>`,
    )
    .join('\n');
  return page(
    endpoint.name,
    `      <span>
        <p class="intro">Click <a href="${escapeHtml(file)}">here</a> for a complete list of operations.</p>
        <h2>${escapeHtml(operation.name)}</h2>
        <p class="intro"></p>
${testSection(operation, `${baseUrl}${endpoint.path}/${operation.name}`, testFormShown)}
${samples}
      </span>`,
  );
}

export function methodNotFoundPage(endpoint: Endpoint, requestedName: string): string {
  const file = `${endpoint.name}.asmx`;
  return page(
    endpoint.name,
    `      <span>
        <p class="intro">Click <a href="${escapeHtml(file)}">here</a> for a complete list of operations.</p>
        <h2>Method Not Found</h2>
        <p class="intro">The operation ${escapeHtml(requestedName)} is not supported by this service.</p>
      </span>`,
  );
}
