import type { Catalog } from '../contract/catalog';
import { counted } from '../lib/counted';
import { escapeHtml } from '../wire/html-escape';
import { page } from './html';

/**
 * The page at / for the school's IT staff on this machine (LOCAL_NETWORKS): every service with its
 * help page, its WSDL and its operations; the status, health and metrics endpoints; where the
 * documentation is. Anyone else gets ASP.NET's 404 page, as the legacy server answered /.
 */
export function indexPage(catalog: Catalog, version: string): string {
  const services = catalog.endpoints
    .map((endpoint) => {
      const path = escapeHtml(endpoint.path);
      const operations = endpoint.operations.map((operation) => escapeHtml(operation.name)).join(', ');
      return (
        `        <li><a href="${path}">${escapeHtml(endpoint.name)}</a> (<a href="${path}?WSDL">WSDL</a>): ` +
        `${counted(endpoint.operations.length, 'operation')}: ${operations}</li>`
      );
    })
    .join('\n');
  const size = `${counted(catalog.endpoints.length, 'service')}, ${counted(catalog.operations.length, 'operation')}`;
  const lines = [
    '      <span>',
    `      <p class="intro">Version ${escapeHtml(version)}: ${size}. ` +
      "Only this machine's callers (LOCAL_NETWORKS) see this page.</p>",
    '      <h2>Services</h2>',
    '      <ul>',
    services,
    '      </ul>',
    '      <h2>Status</h2>',
    '      <ul>',
    '        <li><a href="/status">/status</a>: requests, latency, the outbox, the store, the processes serving ' +
      '(<a href="/status.json">JSON</a>)</li>',
    '        <li><a href="/readyz">/readyz</a>: ready to serve (the balancer\'s check); ' +
      '<a href="/healthz">/healthz</a>: alive</li>',
    '        <li><a href="/metrics">/metrics</a>: Prometheus figures</li>',
    '      </ul>',
    '      <h2>Documentation</h2>',
    '      <p class="intro">In the release\'s <code>docs/</code> folder (<code>/opt/school-service/docs</code> ' +
      'on a server installed as deployment.md says): README.md first, then deployment.md, running.md and ' +
      "access.md. <code>school-service --help</code> lists the operator's commands.</p>",
    '      </span>',
  ];
  return page('School-information service', lines.join('\n'));
}
