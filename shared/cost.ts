/**
 * Event cost: stored as the values the user gave ("$20", "20€", "Free"), shown as the original
 * shows it (reference §5.4): one value with its symbol in place, several as "lowest – highest",
 * a zero lowest value as "Free". A value without a symbol is shown with the site's default symbol
 * while `cost_details.currency_symbol` stays empty.
 */
import type { CostDetails } from './api/records';

export interface CurrencyDefaults {
  symbol: string;
  position: 'prefix' | 'postfix';
  code: string;
}

const CODES: Record<string, string> = {
  $: 'USD', US$: 'USD', '€': 'EUR', '£': 'GBP', R$: 'BRL', '¥': 'JPY', '₹': 'INR', 'C$': 'CAD', A$: 'AUD', CHF: 'CHF', 'MX$': 'MXN',
};

interface ParsedValue {
  symbol: string;
  position: 'prefix' | 'postfix' | '';
  /** Numeric text ("1250.5") or the value itself when it is not a number ("Free"). */
  value: string;
  numeric: number | null;
}

const NUMBER = /\d[\d.,\s]*/;

function normaliseNumber(raw: string): string {
  let s = raw.replace(/\s/g, '');
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, ''); // 1,250.50
  else if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(s)) s = s.replace(/\./g, '').replace(',', '.'); // 1.250,50
  else if (/^\d+,\d{1,2}$/.test(s)) s = s.replace(',', '.'); // 20,50
  return s;
}

export function parseCostValue(raw: string): ParsedValue {
  const text = raw.trim();
  const m = NUMBER.exec(text);
  if (!m) return { symbol: '', position: '', value: text, numeric: null };
  const before = text.slice(0, m.index).trim();
  const after = text.slice(m.index + m[0].length).trim();
  const number = normaliseNumber(m[0].trim());
  const n = Number(number);
  if (!Number.isFinite(n) || (before && after)) return { symbol: '', position: '', value: text, numeric: null };
  return {
    symbol: before || after,
    position: before ? 'prefix' : after ? 'postfix' : '',
    value: number,
    numeric: n,
  };
}

function formatOne(v: ParsedValue, symbol: string, position: 'prefix' | 'postfix' | ''): string {
  if (v.numeric === null) return v.value;
  if (!symbol) return v.value;
  return position === 'postfix' ? `${v.value}${symbol}` : `${symbol}${v.value}`;
}

/** The `cost` and `cost_details` of an event from its stored values. */
export function describeCost(values: string[], defaults: CurrencyDefaults): { cost: string; cost_details: CostDetails } {
  const parsed = values.map(parseCostValue);
  const withSymbol = parsed.find((p) => p.symbol);
  const symbol = withSymbol?.symbol ?? '';
  const position = withSymbol?.position ?? '';
  const sorted = [...parsed].sort((a, b) => {
    if (a.numeric === null && b.numeric === null) return 0;
    if (a.numeric === null) return 1;
    if (b.numeric === null) return -1;
    return a.numeric - b.numeric;
  });
  const details: CostDetails = {
    currency_symbol: symbol,
    currency_code: symbol ? (CODES[symbol] ?? '') : '',
    currency_position: position,
    values: sorted.map((p) => p.value),
  };
  if (sorted.length === 0) return { cost: '', cost_details: details };

  const shownSymbol = symbol || defaults.symbol;
  const shownPosition = symbol ? position : defaults.position;
  const numeric = sorted.filter((p) => p.numeric !== null);
  if (numeric.length <= 1 || sorted.length === 1) {
    const only = numeric[0] ?? sorted[0];
    const text = only.numeric === 0 ? 'Free' : formatOne(only, shownSymbol, shownPosition);
    return { cost: text, cost_details: details };
  }
  const low = numeric[0];
  const high = numeric[numeric.length - 1];
  const lowText = low.numeric === 0 ? 'Free' : formatOne(low, shownSymbol, shownPosition);
  const highText = formatOne(high, shownSymbol, shownPosition);
  return { cost: low.numeric === high.numeric ? highText : `${lowText} – ${highText}`, cost_details: details };
}
