import { JsonBinding } from '../bindings/json/json-binding';
import type { Config } from '../config/service-config';
import type { Catalog } from '../contract/catalog';
import type { ForwardedAnswer, ForwardedCall, SiblingSchool, SiblingSchools } from '../federation/sibling-schools';
import { normaliseBaseUrl } from '../lib/school-address';
import type { CallPipeline } from '../pipeline/call-pipeline';
import type { CallHeaders, CallRequest } from '../pipeline/call-request';
import { HANG_UP } from '../pipeline/reply';
import type { SchoolEntry } from './school-entry';

/**
 * The address an in-process call comes from: this machine, as the call it would otherwise send to
 * its own address comes from it. The school admits it as it admits any caller of that address.
 */
const THIS_MACHINE = '127.0.0.1';

/** The parts of a district a call to one of its schools is run with. */
export interface SiblingParts {
  readonly config: Config;
  readonly catalog: Catalog;
  /** The schools the district serves now (it follows its list while it runs). */
  readonly entries: () => readonly SchoolEntry[];
  /** Runs `work` with a registered school's call pipeline, opening the school first, as a call in flight. */
  readonly inSchool: <T>(entry: SchoolEntry, work: (pipeline: CallPipeline) => Promise<T>) => Promise<T>;
  /** The deployment's own school (the bare paths): its call pipeline, open as long as the process runs. */
  readonly deploymentPipeline?: CallPipeline;
}

/**
 * The schools of a district as each of them sees the others, for SendMarkNotes and
 * GetNameAbsenceType whose baseUrlSchool is one of them: a school is found at this deployment's
 * address and its path, or at its own host; the deployment's own school (the bare paths) at this
 * deployment's address alone, or its SCHOOL_BASE_URL. The call is handed to its pipeline as the JSON
 * call a partner's instance is sent (the shared secret in its header), so that it passes every
 * check a forwarded call passes there (the secret, no second hop, the school's callers, its audit
 * trail), and never leaves the process.
 */
export class DistrictSiblings implements SiblingSchools {
  private readonly json: JsonBinding;

  constructor(private readonly parts: SiblingParts) {
    this.json = new JsonBinding(parts.config.budgets);
  }

  /**
   * The district's schools as the deployment's own school sees them: the registered schools. Not
   * itself: its own address is its own school, and any other that named it would be a school it
   * does not know.
   */
  readonly ofDeploymentSchool: SiblingSchools = {
    find: (address, requestBaseUrl) => this.registered(address, this.deploymentUrl(requestBaseUrl)),
  };

  /** The school at `address` as a registered school sees the others: the registered ones, then the deployment's own. */
  find(address: string, requestBaseUrl: string): SiblingSchool | undefined {
    const deployment = this.deploymentUrl(requestBaseUrl);
    return this.registered(address, deployment) ?? this.deploymentSchool(address, deployment);
  }

  /** A registered school: at this deployment's address and its path, or at its own host. */
  private registered(address: string, deployment: string | undefined): SiblingSchool | undefined {
    const { hostname, pathname } = new URL(address);
    const entry = this.parts
      .entries()
      .find(
        (candidate) =>
          (deployment !== undefined && address === deployment + candidate.path) ||
          (candidate.host === hostname && pathname === '/'),
      );
    if (!entry) return undefined;
    // The school's address as its own calls name it, which it checks a forwarded call is for.
    const baseUrl = deployment === undefined ? address : deployment + entry.path;
    return {
      baseUrl,
      call: (forwarded) => this.parts.inSchool(entry, (pipeline) => this.run(pipeline, baseUrl, forwarded)),
    };
  }

  /**
   * The deployment's own school: at this deployment's address without a path, or at the address
   * its SCHOOL_BASE_URL names, which is also the one it checks a forwarded call is for.
   */
  private deploymentSchool(address: string, deployment: string | undefined): SiblingSchool | undefined {
    const pipeline = this.parts.deploymentPipeline;
    const { schoolBaseUrl } = this.parts.config.notifications;
    if (pipeline === undefined || (address !== deployment && address !== schoolBaseUrl)) return undefined;
    const baseUrl = schoolBaseUrl ?? address;
    return { baseUrl, call: (forwarded) => this.run(pipeline, baseUrl, forwarded) };
  }

  /** This deployment's address: PUBLIC_BASE_URL, or the scheme, host and port the call reached. */
  private deploymentUrl(requestBaseUrl: string): string | undefined {
    const { publicBaseUrl } = this.parts.config;
    if (publicBaseUrl !== undefined) return normaliseBaseUrl(publicBaseUrl);
    return URL.canParse(requestBaseUrl) ? new URL(requestBaseUrl).origin : undefined;
  }

  private async run(pipeline: CallPipeline, baseUrl: string, forwarded: ForwardedCall): Promise<ForwardedAnswer> {
    const slash = forwarded.path.lastIndexOf('/');
    const endpoint = this.parts.catalog.endpointByPath(forwarded.path.slice(0, slash));
    const operationName = forwarded.path.slice(slash + 1);
    const operation = endpoint?.operations.find((candidate) => candidate.name === operationName);
    if (!operation) return { status: 404, body: '' };
    const headers: Record<string, string> = { host: new URL(baseUrl).host };
    for (const [name, value] of Object.entries(forwarded.headers)) headers[name.toLowerCase()] = value;
    const body = Buffer.from(forwarded.body, 'utf8');
    const request: CallRequest = {
      method: 'POST',
      target: forwarded.path,
      address: THIS_MACHINE,
      headers: headers as CallHeaders,
      readBody: async (limit) => (body.length > limit ? { kind: 'too-large' } : { kind: 'body', body }),
    };
    const served = await pipeline.serve(pipeline.exchange(request, undefined), this.json, operation);
    // Nobody goes away from a call in process: a hang-up is an answer that never came.
    if (served === HANG_UP) return { status: 503, body: '' };
    return { status: served.status, body: served.body.toString() };
  }
}
