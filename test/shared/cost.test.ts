import { describe, it, expect } from 'vitest';
import { describeCost, parseCostValue } from '../../shared/cost';

const usd = { symbol: '$', position: 'prefix' as const, code: 'USD' };

describe('cost as the original shows it (reference §5.4)', () => {
  it('keeps a prefix symbol in front', () => {
    expect(describeCost(['$23'], usd)).toEqual({
      cost: '$23',
      cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['23'] },
    });
  });

  it('keeps a postfix symbol behind', () => {
    const { cost, cost_details } = describeCost(['20€'], usd);
    expect(cost).toBe('20€');
    expect(cost_details).toMatchObject({ currency_symbol: '€', currency_position: 'postfix', currency_code: 'EUR' });
  });

  it('shows a bare number with the site symbol but leaves currency_symbol empty (correction 16)', () => {
    expect(describeCost(['25'], usd)).toEqual({
      cost: '$25',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['25'] },
    });
  });

  it('shows several values as a range, lowest first, a zero as Free', () => {
    const { cost, cost_details } = describeCost(['30$', '0$', '20$'], usd);
    expect(cost).toBe('Free – 30$');
    expect(cost_details.values).toEqual(['0', '20', '30']);
  });

  it('keeps text that is not a number as it is', () => {
    expect(describeCost(['Donation'], usd).cost).toBe('Donation');
    expect(describeCost(['Donation'], usd).cost_details.values).toEqual(['Donation']);
  });

  it('gives empty strings and no values when there is no cost', () => {
    expect(describeCost([], usd)).toEqual({ cost: '', cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] } });
  });

  it('reads thousands separators and decimal commas', () => {
    expect(parseCostValue('$1,250.50').value).toBe('1250.50');
    expect(parseCostValue('1.250,50 €').value).toBe('1250.50');
    expect(parseCostValue('R$ 20,50')).toMatchObject({ symbol: 'R$', position: 'prefix', value: '20.50' });
  });
});
