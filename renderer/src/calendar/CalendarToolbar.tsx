/** Navigation, view switcher, date picker and search above the calendar. */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCalendar, VIEWS } from '../state/calendar';
import { useEvents } from '../state/events';
import { useFilters } from '../state/filters';
import { useUi } from '../state/ui';
import { useSettings } from '../state/settings';
import { Icon } from '../components/Icon';
import { DateField } from '../components/DateTimeFields';

export function SearchBox() {
  const { t } = useTranslation();
  const search = useFilters((s) => s.search);
  const setSearch = useFilters((s) => s.setSearch);
  const focusRequest = useUi((s) => s.searchFocusRequest);
  const [text, setText] = useState(search);
  const ref = useRef<HTMLInputElement>(null);

  // Typing fetches once the user pauses, not on every key.
  const pushed = useRef(search);
  const commit = (value: string) => {
    pushed.current = value;
    setSearch(value);
  };
  useEffect(() => {
    if (text === pushed.current) return;
    const h = setTimeout(() => commit(text), 250);
    return () => clearTimeout(h);
  });
  // Cleared from elsewhere ("Clear filters"): show it.
  useEffect(() => {
    if (search !== pushed.current) {
      pushed.current = search;
      setText(search);
    }
  }, [search]);
  useEffect(() => {
    if (focusRequest) {
      ref.current?.focus();
      ref.current?.select();
    }
  }, [focusRequest]);

  return (
    <div className="search" role="search">
      <Icon name="search" size={16} className="search-icon" />
      <input
        ref={ref}
        type="search"
        aria-label={t('toolbar.search')}
        placeholder={t('toolbar.search_placeholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(text);
          if (e.key === 'Escape') {
            setText('');
            commit('');
            ref.current?.blur();
          }
        }}
      />
    </div>
  );
}

/** Which language's records are on screen, always in sight: events of the others are hidden, not gone. */
function RecordsBadge() {
  const { t } = useTranslation();
  const language = useSettings((s) => s.contentLanguage);
  return (
    <span className="records-badge" title={`${t('language.badge', { language: t(`language.called.${language}`) })}. ${t('language.badge_hint')}`}>
      {/* "Records:" is read out; on screen the language alone keeps the toolbar on one row at 1366 px. */}
      <span className="visually-hidden">{t('language.badge_prefix')} </span>
      <Icon name="folder" size={14} />
      {t(`language.called.${language}`)}
    </span>
  );
}

export function CalendarToolbar() {
  const { t } = useTranslation();
  const view = useCalendar((s) => s.view);
  const date = useCalendar((s) => s.date);
  const title = useCalendar((s) => s.title);
  const { setView, goto, today, prev, next } = useCalendar.getState();
  const fetching = useEvents((s) => s.fetching);

  return (
    <div className="toolbar" role="toolbar" aria-label={t('toolbar.label')}>
      <div className="toolbar-group">
        <button
          type="button"
          className="button quick-add-button"
          onClick={() => useUi.getState().openQuickAdd()}
          title={`${t('quick_add.open')} · ${t('shortcut.hint', { key: 'Q' })}`}
          aria-label={t('quick_add.open')}
        >
          <Icon name="bolt" size={16} />
          <span className="quick-add-button-text">{t('quick_add.open')}</span>
        </button>
        <button type="button" className="button" onClick={today} title={t('shortcut.hint', { key: 'T' })}>
          {t('toolbar.today')}
        </button>
        <div className="button-pair">
          <button type="button" className="icon-button nav-button" aria-label={t('toolbar.previous')} title={t('toolbar.previous')} onClick={prev}>
            <Icon name="left" size={20} />
          </button>
          <button type="button" className="icon-button nav-button" aria-label={t('toolbar.next')} title={t('toolbar.next')} onClick={next}>
            <Icon name="right" size={20} />
          </button>
        </div>
        <h2 className="toolbar-title" aria-live="polite" title={title}>
          {title}
        </h2>
        <DateField className="date-picker" aria-label={t('toolbar.goto_date')} title={t('toolbar.goto_date')} value={date} onChange={goto} />
        {fetching && (
          <span className="spinner" role="status" aria-label={t('toolbar.loading')}>
            <span className="visually-hidden">{t('toolbar.loading')}</span>
          </span>
        )}
      </div>
      <div className="toolbar-group">
        <RecordsBadge />
        <SearchBox />
        <div className="segmented" role="group" aria-label={t('toolbar.views')}>
          {VIEWS.map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              className={view === v ? 'active' : ''}
              onClick={() => setView(v)}
              title={t('shortcut.hint', { key: t(`view.${v}_key`) })}
            >
              {t(`view.${v}`)}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
