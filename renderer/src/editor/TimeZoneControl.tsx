import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exactZone, searchZones, warmZoneIndex, zoneCity, zoneOffset } from '../lib/zoneSearch';
import { Field, invalidProps, type Inner } from './fieldParts';

/**
 * A zone is picked from a list found by city, country or id as people type them ("New York",
 * "Lisboa", "Spain"); what was typed stays in the form until it is a zone, so Save refuses it
 * (see `localErrors`) instead of keeping the old zone behind the user's back.
 */
export function TimeZoneControl(p: Inner & { hint?: string }) {
  const { t } = useTranslation();
  const listId = `${p.ids.input}-zones`;
  const value = typeof p.value === 'string' ? p.value : '';
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [touched, setTouched] = useState(false);
  const matches = open && value.trim() && exactZone(value) === null ? searchZones(value) : [];
  const error = p.error ?? (touched && !open && exactZone(value) === null ? t('errors.zone') : undefined);
  const pick = (zone: string) => {
    p.onChange(zone);
    setOpen(false);
    setActive(0);
  };
  return (
    <Field label={p.label} htmlFor={p.ids.input} error={error} errorId={p.ids.error} hint={p.hint} hintId={p.ids.hint}>
      <input
        id={p.ids.input}
        role="combobox"
        aria-expanded={matches.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={matches[active] ? `${listId}-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={t('field.zone_placeholder')}
        value={value}
        {...invalidProps(error, p.ids.error)}
        onFocus={() => void warmZoneIndex()}
        onChange={(e) => {
          p.onChange(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onBlur={() => {
          setOpen(false);
          setTouched(true);
          const zone = exactZone(value);
          if (zone !== null && zone !== value) p.onChange(zone);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((a) => Math.min(a + 1, Math.max(0, matches.length - 1)));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter' && matches[active]) {
            e.preventDefault();
            pick(matches[active]);
          } else if (e.key === 'Escape' && matches.length) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
      />
      <ul role="listbox" id={listId} className="listbox" hidden={matches.length === 0} aria-label={t('field.zone_matches')}>
        {matches.map((z, i) => (
          <li
            key={z}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'active' : ''}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(z)}
          >
            {zoneCity(z)} <span className="option-note">· {z} · {zoneOffset(z)}</span>
          </li>
        ))}
      </ul>
    </Field>
  );
}
