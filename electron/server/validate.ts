/**
 * Checks a request's fields against their declarations (shared/schema) the way the original's REST
 * server does: first every required field that is absent (400 rest_missing_callback_param), then
 * each present value (400 rest_invalid_param naming every bad one). Unknown keys are ignored, as
 * the original ignores them; `null` counts as absent.
 */
import type { ParamDef } from '../../shared/schema/queries';
import { isMessageKey, type MessageKey } from '../../shared/i18n/messages';
import { invalidParams, missingParams } from './errors';

export type Declared = Pick<ParamDef, 'kind' | 'required'>;

export type Values = Record<string, unknown>;

export function validateFields(decls: Record<string, Declared>, input: Record<string, unknown>, mode: 'create' | 'update'): Values {
  if (mode === 'create') {
    const missing = Object.entries(decls)
      .filter(([name, d]) => d.required && (input[name] === undefined || input[name] === null))
      .map(([name]) => name);
    if (missing.length) throw missingParams(missing);
  }
  const values: Values = {};
  const invalid: Record<string, MessageKey> = {};
  for (const [name, d] of Object.entries(decls)) {
    if (!Object.prototype.hasOwnProperty.call(input, name)) continue;
    const raw = input[name];
    if (raw === undefined || raw === null) continue;
    const result = d.kind.schema.safeParse(raw);
    if (result.success) values[name] = result.data;
    else {
      const msg = result.error.issues[0]?.message ?? '';
      invalid[name] = isMessageKey(msg) ? msg : 'invalid_param';
    }
  }
  if (Object.keys(invalid).length) throw invalidParams(invalid);
  return values;
}

/** True when a body value means "nothing" for a link field: "", 0, [], or an object of empty values. */
export function isEmptyLink(v: unknown): boolean {
  if (v === '' || v === 0 || v === '0' || v === false || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as object).every((x) => x === '' || x === null || x === undefined || (Array.isArray(x) && x.length === 0));
  return false;
}
