/**
 * Checks a request's fields against their declarations (shared/schema) the way the original's REST
 * server does: first every required field that is absent (400 rest_missing_callback_param), then
 * each present value (400 rest_invalid_param naming every bad one). Unknown keys are ignored, as
 * the original ignores them; `null` counts as absent (except for Almanac's own fields whose kind
 * says null is a value, such as `recurrence: null`).
 */
import type { ParamDef } from '../../shared/schema/queries';
import type { IssueSink } from '../../shared/schema/kinds';
import { isMessageKey, type MessageKey } from '../../shared/i18n/messages';
import { invalidParams, missingParams } from './errors';

export type Declared = Pick<ParamDef, 'kind' | 'required'>;

export type Values = Record<string, unknown>;

/** Each declaration list's entries and required names, worked out once: requests reuse a few lists. */
const plans = new WeakMap<Record<string, Declared>, { fields: Array<[string, Declared]>; required: string[] }>();

function planOf(decls: Record<string, Declared>) {
  let plan = plans.get(decls);
  if (!plan) {
    const fields = Object.entries(decls);
    plan = { fields, required: fields.filter(([, d]) => d.required).map(([name]) => name) };
    plans.set(decls, plan);
  }
  return plan;
}

export function validateFields(decls: Record<string, Declared>, input: Record<string, unknown>, mode: 'create' | 'update'): Values {
  const { fields, required } = planOf(decls);
  if (mode === 'create') {
    const missing = required.filter((name) => input[name] === undefined || input[name] === null);
    if (missing.length) throw missingParams(missing);
  }
  const values: Values = {};
  let invalid: Record<string, MessageKey> | undefined;
  let invalidVars: Record<string, Record<string, string | number>> | undefined;
  // A value with an issue is refused, and its first issue names the problem.
  const issues: string[] = [];
  let firstVars: Record<string, string | number> | undefined;
  const sink: IssueSink = {
    addIssue: (key, vars) => {
      if (issues.push(key) === 1) firstVars = vars;
    },
  };
  for (const [name, d] of fields) {
    const raw = input[name];
    if (raw === undefined || (raw === null && !d.kind.nullIsValue) || !Object.prototype.hasOwnProperty.call(input, name)) continue;
    issues.length = 0;
    firstVars = undefined;
    const value = d.kind.parse(raw, sink);
    if (issues.length === 0) values[name] = value;
    else {
      (invalid ??= {})[name] = isMessageKey(issues[0]) ? issues[0] : 'invalid_param';
      if (firstVars) (invalidVars ??= {})[name] = firstVars;
    }
  }
  if (invalid) throw invalidParams(invalid, {}, invalidVars);
  return values;
}

/** True when a body value means "nothing" for a link field: "", 0, [], or an object of empty values. */
export function isEmptyLink(v: unknown): boolean {
  if (v === '' || v === 0 || v === '0' || v === false || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as object).every((x) => x === '' || x === null || x === undefined || (Array.isArray(x) && x.length === 0));
  return false;
}
