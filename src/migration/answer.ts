import { parseContentType } from '../wire/content-type';
import { type Difference, differences, type InfoNode, jsonInfoset, textInfoset, xmlInfoset } from './infoset';

/** An answer to one call, from either service, as far as comparing and passing it on need it. */
export interface Answer {
  readonly status: number;
  /** The headers that matter (Content-Type, and those listed in legacy-client.ts), names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

function infosetOf(answer: Answer): InfoNode {
  const text = answer.body.toString('utf8');
  const { mediaType } = parseContentType(answer.headers['content-type']);
  const parsed = mediaType.includes('json')
    ? jsonInfoset(text)
    : mediaType.includes('xml')
      ? xmlInfoset(text)
      : undefined;
  return parsed ?? textInfoset(text);
}

/** Where two answers differ: their status ('(status)'), and their bodies as infosets. */
export function answerDifferences(local: Answer, legacy: Answer): Difference[] {
  const found = differences(infosetOf(local), infosetOf(legacy));
  if (local.status !== legacy.status) {
    found.unshift({ path: '(status)', local: String(local.status), legacy: String(legacy.status) });
  }
  return found;
}
