/**
 * One form control per field declaration: the label comes from the field's i18n key, the kind of
 * control from its kind's `input` hint (shared/schema), so the server's rules and the forms come
 * from one list of fields.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { venueFields, organizerFields } from '@shared/schema/resources';
import type { FieldDef } from '@shared/schema/resources';
import type { Term } from '@shared/api/records';
import { splitDateTime, joinDateTime } from '../lib/dates';
import { DateField, TimeField } from '../components/DateTimeFields';
import { PALETTE, decodeEntities } from '../calendar/toEventInput';
import { useLookups } from '../state/lookups';
import type { NewOrganizer, NewVenue, OrganizersValue, TermRef, VenueValue } from './form';
import { Field, invalidProps, useFieldIds, type ControlProps, type Inner } from './fieldParts';
import { TimeZoneControl } from './TimeZoneControl';

export type { ControlProps };

export function FieldControl(p: ControlProps) {
  const { t } = useTranslation();
  const ids = useFieldIds();
  const label = t(p.def.label);
  const input = p.def.kind.input;
  const str = typeof p.value === 'string' ? p.value : p.value == null ? '' : String(p.value);
  const common = {
    id: ids.input,
    name: p.name,
    ...invalidProps(p.error, ids.error),
    ...(p.autoFocus ? { autoFocus: true, 'data-autofocus': true } : {}),
  };

  switch (input) {
    case 'checkbox':
      return (
        <div className={`field field-check ${p.error ? 'field-invalid' : ''}`}>
          <input {...common} type="checkbox" checked={!!p.value} onChange={(e) => p.onChange(e.target.checked)} />
          <label htmlFor={ids.input}>{label}</label>
          {p.error && (
            <p className="field-error" id={ids.error}>
              {p.error}
            </p>
          )}
        </div>
      );
    case 'textarea':
      return (
        <Field label={label} htmlFor={ids.input} error={p.error} errorId={ids.error} required={p.def.required} hint={p.htmlSource ? t('field.html_source_hint') : undefined} hintId={ids.hint}>
          <textarea
            {...(p.htmlSource && !p.error ? { 'aria-describedby': ids.hint } : {})}
            {...common}
            rows={p.name === 'excerpt' ? 2 : 4}
            value={str}
            onChange={(e) => p.onChange(e.target.value)}
          />
        </Field>
      );
    case 'datetime':
      return <DateTimeControl {...p} label={label} ids={ids} />;
    case 'timezone':
      return <TimeZoneControl {...p} label={label} ids={ids} />;
    case 'select': {
      const options = (p.def.kind.openapi.enum ?? []).filter((s) => s !== 'trash');
      return (
        <Field label={label} htmlFor={ids.input} error={p.error} errorId={ids.error} required={p.def.required}>
          <select {...common} value={str} onChange={(e) => p.onChange(e.target.value)}>
            {options.map((o) => (
              <option key={o} value={o}>
                {t(`status.${o}`, { defaultValue: o })}
              </option>
            ))}
          </select>
        </Field>
      );
    }
    case 'terms':
      return <TermsControl {...p} label={label} ids={ids} />;
    case 'venue':
      return <VenueControl {...p} label={label} ids={ids} />;
    case 'organizers':
      return <OrganizersControl {...p} label={label} ids={ids} />;
    case 'image':
      return (
        <Field label={label} htmlFor={ids.input} error={p.error} errorId={ids.error}>
          <div className="image-field">
            <input {...common} type="url" inputMode="url" placeholder="https://…" value={str} onChange={(e) => p.onChange(e.target.value)} />
            {/^(https?|file):\/\/\S+$/.test(str) && <img className="image-preview" src={str} alt={t('field.image_preview')} />}
          </div>
        </Field>
      );
    case 'color':
      return <ColourControl {...p} label={label} ids={ids} />;
    case 'number':
      if (p.name === 'parent') return <ParentControl {...p} label={label} ids={ids} />;
      return (
        <Field label={label} htmlFor={ids.input} error={p.error} errorId={ids.error} required={p.def.required}>
          <input
            {...common}
            type="number"
            step={p.name.startsWith('geo_') ? 'any' : 1}
            min={p.name === 'geo_lat' ? -90 : p.name === 'geo_lng' ? -180 : undefined}
            max={p.name === 'geo_lat' ? 90 : p.name === 'geo_lng' ? 180 : undefined}
            value={str}
            onChange={(e) => p.onChange(e.target.value)}
          />
        </Field>
      );
    default: {
      const type = input === 'url' ? 'url' : input === 'email' ? 'email' : input === 'password' ? 'password' : input === 'tel' || p.name === 'phone' ? 'tel' : 'text';
      return (
        <Field label={label} htmlFor={ids.input} error={p.error} errorId={ids.error} required={p.def.required}>
          <input
            {...common}
            type={type}
            required={p.def.required}
            placeholder={input === 'cost' ? t('field.cost_placeholder') : type === 'url' ? 'https://…' : undefined}
            // A server's password is not this page's login: no browser autofill of a saved one.
            autoComplete={type === 'password' ? 'new-password' : undefined}
            value={str}
            onChange={(e) => p.onChange(e.target.value)}
          />
        </Field>
      );
    }
  }
}


function DateTimeControl(p: Inner) {
  const { t } = useTranslation();
  const value = typeof p.value === 'string' ? p.value : '';
  const { date, time } = splitDateTime(value);
  const isEventSpan = p.name === 'start_date' || p.name === 'end_date';
  const hideTime = isEventSpan && p.allDay;
  return (
    <Field label={p.label} htmlFor={p.ids.input} error={p.error} errorId={p.ids.error} required={p.def.required}>
      <div className="datetime">
        <DateField
          id={p.ids.input}
          value={date}
          required={p.def.required}
          {...invalidProps(p.error, p.ids.error)}
          onChange={(d) => p.onChange(joinDateTime(d, hideTime && p.name === 'end_date' ? '23:59' : time))}
        />
        {!hideTime && (
          <TimeField
            className="time-field"
            aria-label={t('field.time_of', { label: p.label })}
            value={time}
            {...invalidProps(p.error, p.ids.error)}
            onChange={(hhmm) => p.onChange(joinDateTime(date, hhmm))}
          />
        )}
      </div>
    </Field>
  );
}

/** Chips plus a combobox: pick an existing term or type a new name to create it on save. */
function TermsControl(p: Inner) {
  const { t } = useTranslation();
  const taxonomy = p.taxonomy ?? (p.name === 'tags' ? 'tags' : 'categories');
  const options = useLookups((s) => s[taxonomy]);
  const value = (p.value as TermRef[]) ?? [];
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = `${p.ids.input}-list`;

  const chosen = new Set(value.map((v) => (v.id ? `#${v.id}` : v.name.toLowerCase())));
  const needle = text.trim().toLowerCase();
  const matches = options
    .filter((o) => !chosen.has(`#${o.id}`) && decodeEntities(o.name).toLowerCase().includes(needle))
    .slice(0, 8);
  const exact = options.find((o) => decodeEntities(o.name).toLowerCase() === needle);
  const suggestions: Array<{ key: string; term?: Term; create?: string }> = matches.map((o) => ({ key: `t${o.id}`, term: o }));
  if (needle && !exact && !chosen.has(needle)) suggestions.push({ key: 'new', create: text.trim() });

  const add = (ref: TermRef) => {
    if (!chosen.has(ref.id ? `#${ref.id}` : ref.name.toLowerCase())) p.onChange([...value, ref]);
    setText('');
    setActive(0);
  };
  const pick = (s: (typeof suggestions)[number]) => (s.term ? add({ id: s.term.id, name: decodeEntities(s.term.name) }) : add({ name: s.create! }));
  const parentName = (term: Term) => {
    if (!term.parent) return '';
    const parent = options.find((o) => o.id === term.parent);
    return parent ? decodeEntities(parent.name) : '';
  };

  return (
    <Field label={p.label} htmlFor={p.ids.input} error={p.error} errorId={p.ids.error}>
      <div className="chips-input" onClick={() => inputRef.current?.focus()}>
        {value.length > 0 && (
          <ul className="chips" aria-label={t('field.selected', { label: p.label })}>
            {value.map((v, i) => (
              <li key={v.id ?? `n-${v.name}`} className={`chip ${v.id ? '' : 'chip-new'}`}>
                <span>{v.name}</span>
                {!v.id && <span className="chip-note">{t('field.new')}</span>}
                <button
                  type="button"
                  className="chip-remove"
                  aria-label={t('action.removeItem', { name: v.name })}
                  onClick={() => p.onChange(value.filter((_, j) => j !== i))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={inputRef}
          id={p.ids.input}
          role="combobox"
          aria-expanded={open && suggestions.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && suggestions[active] ? `${listId}-${suggestions[active].key}` : undefined}
          autoComplete="off"
          placeholder={value.length ? '' : t('field.terms_placeholder')}
          value={text}
          {...invalidProps(p.error, p.ids.error)}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onChange={(e) => {
            const v = e.target.value;
            if (v.endsWith(',') && v.trim().length > 1) {
              const name = v.slice(0, -1).trim();
              const hit = options.find((o) => decodeEntities(o.name).toLowerCase() === name.toLowerCase());
              add(hit ? { id: hit.id, name: decodeEntities(hit.name) } : { name });
              return;
            }
            setText(v);
            setOpen(true);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setOpen(true);
              setActive((a) => Math.min(a + 1, suggestions.length - 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => Math.max(a - 1, 0));
            } else if (e.key === 'Enter') {
              if (text.trim()) {
                e.preventDefault();
                const s = open ? suggestions[active] : undefined;
                if (s) pick(s);
                else add(exact ? { id: exact.id, name: decodeEntities(exact.name) } : { name: text.trim() });
              }
            } else if (e.key === 'Escape' && open && text) {
              e.preventDefault();
              e.stopPropagation();
              setOpen(false);
            } else if (e.key === 'Backspace' && text === '' && value.length) {
              p.onChange(value.slice(0, -1));
            }
          }}
        />
      </div>
      <ul role="listbox" id={listId} className="listbox" hidden={!open || suggestions.length === 0} aria-label={p.label}>
        {suggestions.map((s, i) => (
          <li
            key={s.key}
            id={`${listId}-${s.key}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'active' : ''}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(s)}
          >
            {s.term ? (
              <>
                {decodeEntities(s.term.name)}
                {parentName(s.term) && <span className="option-note"> · {parentName(s.term)}</span>}
              </>
            ) : (
              t('field.create_named', { name: s.create })
            )}
          </li>
        ))}
      </ul>
    </Field>
  );
}

const NEW = '__new__';

/** Inline creation reuses the venue and organizer declarations for its few fields. */
function SubForm<T extends Record<string, string>>({
  legend,
  fields,
  names,
  value,
  onChange,
  errors,
}: {
  legend: string;
  fields: Record<string, FieldDef>;
  names: string[];
  value: T;
  onChange(v: T): void;
  errors?: Record<string, string>;
}) {
  return (
    <fieldset className="subform">
      <legend>{legend}</legend>
      {names.map((n, i) => (
        <FieldControl
          key={n}
          name={n}
          def={fields[n]}
          value={value[n] ?? ''}
          error={errors?.[n]}
          autoFocus={i === 0}
          onChange={(v) => onChange({ ...value, [n]: v as string })}
        />
      ))}
    </fieldset>
  );
}

function VenueControl(p: Inner) {
  const { t } = useTranslation();
  const venues = useLookups((s) => s.venues);
  const value = p.value as VenueValue;
  const isNew = value !== null && typeof value === 'object';
  const selected = isNew ? NEW : value ? String(value) : '';
  const known = typeof value === 'number' && !venues.some((v) => v.id === value);
  return (
    <div className="field-group">
      <Field label={p.label} htmlFor={p.ids.input} error={p.error} errorId={p.ids.error}>
        <select
          id={p.ids.input}
          value={selected}
          {...invalidProps(p.error, p.ids.error)}
          onChange={(e) => {
            const v = e.target.value;
            p.onChange(v === '' ? null : v === NEW ? { venue: '' } : Number(v));
          }}
        >
          <option value="">{t('field.no_venue')}</option>
          {known && <option value={String(value)}>#{String(value)}</option>}
          {venues.map((v) => (
            <option key={v.id} value={String(v.id)}>
              {decodeEntities(v.venue ?? '')}
              {v.city ? ` — ${decodeEntities(v.city)}` : ''}
            </option>
          ))}
          <option value={NEW}>{t('field.new_venue')}</option>
        </select>
      </Field>
      {isNew && (
        <SubForm
          legend={t('field.new_venue_legend')}
          fields={venueFields}
          names={['venue', 'address', 'city', 'stateprovince', 'zip', 'country', 'phone']}
          value={value as unknown as Record<string, string>}
          errors={p.subErrors}
          onChange={(v) => p.onChange(v as unknown as NewVenue)}
        />
      )}
    </div>
  );
}

function OrganizersControl(p: Inner) {
  const { t } = useTranslation();
  const organizers = useLookups((s) => s.organizers);
  const value = (p.value as OrganizersValue) ?? [];
  const [draft, setDraft] = useState<NewOrganizer | null>(null);
  const chosenIds = new Set(value.filter((v): v is number => typeof v === 'number'));
  const nameOf = (v: number | NewOrganizer) =>
    typeof v === 'number' ? decodeEntities(organizers.find((o) => o.id === v)?.organizer ?? `#${v}`) : v.organizer;
  return (
    <div className="field-group">
      <Field label={p.label} htmlFor={p.ids.input} error={p.error} errorId={p.ids.error}>
        {value.length > 0 && (
          <ul className="chips" aria-label={t('field.selected', { label: p.label })}>
            {value.map((v, i) => (
              <li key={typeof v === 'number' ? v : `n-${i}`} className={`chip ${typeof v === 'number' ? '' : 'chip-new'}`}>
                <span>{nameOf(v)}</span>
                {typeof v !== 'number' && <span className="chip-note">{t('field.new')}</span>}
                <button
                  type="button"
                  className="chip-remove"
                  aria-label={t('action.removeItem', { name: nameOf(v) })}
                  onClick={() => p.onChange(value.filter((_, j) => j !== i))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <select
          id={p.ids.input}
          value=""
          {...invalidProps(p.error, p.ids.error)}
          onChange={(e) => {
            const v = e.target.value;
            if (v === NEW) setDraft({ organizer: '', email: '', phone: '' });
            else if (v) p.onChange([...value, Number(v)]);
          }}
        >
          <option value="">{t('field.add_organizer')}</option>
          {organizers
            .filter((o) => !chosenIds.has(o.id))
            .map((o) => (
              <option key={o.id} value={String(o.id)}>
                {decodeEntities(o.organizer ?? '')}
              </option>
            ))}
          <option value={NEW}>{t('field.new_organizer')}</option>
        </select>
      </Field>
      {draft && (
        <div className="subform-wrap">
          <SubForm
            legend={t('field.new_organizer_legend')}
            fields={organizerFields}
            names={['organizer', 'email', 'phone']}
            value={draft as unknown as Record<string, string>}
            onChange={(v) => setDraft(v as unknown as NewOrganizer)}
          />
          <div className="subform-actions">
            <button type="button" className="button" onClick={() => setDraft(null)}>
              {t('action.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={!draft.organizer.trim()}
              onClick={() => {
                const clean = Object.fromEntries(Object.entries(draft).filter(([, x]) => String(x ?? '').trim() !== '')) as unknown as NewOrganizer;
                p.onChange([...value, clean]);
                setDraft(null);
              }}
            >
              {t('field.add_this_organizer')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

/** A category's parent, chosen by name; a category cannot sit under itself or its descendants. */
function ParentControl(p: Inner) {
  const { t } = useTranslation();
  const categories = useLookups((s) => s.categories);
  const excluded = new Set<number>();
  if (p.selfId) {
    excluded.add(p.selfId);
    let grew = true;
    while (grew) {
      grew = false;
      for (const c of categories) if (c.parent && excluded.has(c.parent) && !excluded.has(c.id)) (excluded.add(c.id), (grew = true));
    }
  }
  const str = p.value == null ? '' : String(p.value);
  return (
    <Field label={p.label} htmlFor={p.ids.input} error={p.error} errorId={p.ids.error}>
      <select id={p.ids.input} value={str} {...invalidProps(p.error, p.ids.error)} onChange={(e) => p.onChange(e.target.value)}>
        <option value="">{t('field.no_parent')}</option>
        {categories
          .filter((c) => !excluded.has(c.id))
          .map((c) => (
            <option key={c.id} value={String(c.id)}>
              {decodeEntities(c.name)}
            </option>
          ))}
      </select>
    </Field>
  );
}

/**
 * A category's colour: the system's colour picker, and "No colour" to go back to the one picked
 * by id. With none chosen the picker shows that colour but the value stays "", so saving other
 * fields never stores a colour the user did not pick.
 */
function ColourControl(p: Inner) {
  const { t } = useTranslation();
  const value = typeof p.value === 'string' ? p.value : '';
  const shown = value || (p.selfId ? PALETTE[p.selfId % PALETTE.length] : '#808080');
  return (
    <Field label={p.label} htmlFor={p.ids.input} error={p.error} errorId={p.ids.error} hint={value ? undefined : t('field.color_none_hint')} hintId={p.ids.hint}>
      <div className="colour-field">
        <input id={p.ids.input} name={p.name} type="color" value={shown} {...invalidProps(p.error, p.ids.error)} onChange={(e) => p.onChange(e.target.value)} />
        <span className="colour-value">{value || t('field.color_none')}</span>
        {value && (
          <button type="button" className="button button-small" onClick={() => p.onChange('')}>
            {t('field.color_clear')}
          </button>
        )}
      </div>
    </Field>
  );
}
