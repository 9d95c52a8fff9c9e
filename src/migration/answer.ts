import type { RequestBudgets } from '../config/request-budgets';
import { parseContentType } from '../wire/content-type';
import { type InfoNode, jsonInfoset, OverBudget, textInfoset, xmlInfoset } from './infoset';
import { type Difference, differences } from './infoset-differences';

/** An answer to one call, from either service, as far as comparing and passing it on need it. */
export interface Answer {
  readonly status: number;
  /** The headers that matter (Content-Type, and those listed in legacy-client.ts), names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

function infosetOf(answer: Answer, budgets: RequestBudgets): InfoNode | OverBudget {
  const text = answer.body.toString('utf8');
  const { mediaType } = parseContentType(answer.headers['content-type']);
  const parsed = mediaType.includes('json')
    ? jsonInfoset(text, budgets)
    : mediaType.includes('xml')
      ? xmlInfoset(text, budgets)
      : undefined;
  return parsed ?? textInfoset(text);
}

/**
 * Where two answers differ: their status ('(status)'), and their bodies as infosets; OverBudget
 * when either body holds more than `budgets` let an answer hold, or the comparison would take more.
 */
export function answerDifferences(local: Answer, legacy: Answer, budgets: RequestBudgets): Difference[] | OverBudget {
  const here = infosetOf(local, budgets);
  if (here instanceof OverBudget) return here;
  const there = infosetOf(legacy, budgets);
  if (there instanceof OverBudget) return there;
  const found = differences(here, there, budgets.xmlElements);
  if (found instanceof OverBudget) return found;
  if (local.status !== legacy.status) {
    found.unshift({ path: '(status)', local: String(local.status), legacy: String(legacy.status) });
  }
  return found;
}
