/** The left column: new event, screens, calendars, filters, languages. */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import i18n from '../i18n';
import { api } from '../state/api';
import { toastInfo } from '../state/toasts';
import { LANGUAGES, useSettings, type Language } from '../state/settings';
import { useUi, type Screen } from '../state/ui';
import { newEventDraft } from '../state/drafts';
import { Filters } from './Filters';
import { MiniMonth } from './MiniMonth';
import { Calendars } from './Calendars';
import { printCalendar } from '../print';
import { Icon, type IconName } from '../components/Icon';
import { SubscribeButton } from '../subscriptions/SubscribeDialog';

const SCREENS: Array<{ screen: Screen; icon: IconName }> = [
  { screen: 'calendar', icon: 'calendar' },
  { screen: 'venues', icon: 'pin' },
  { screen: 'organizers', icon: 'people' },
  { screen: 'categories', icon: 'folder' },
  { screen: 'tags', icon: 'tag' },
  { screen: 'trash', icon: 'trash' },
];

/**
 * Switching the records language hides every event of the others, which looks like data loss to
 * anyone who did not know records have a language: say what is shown now and that the rest is kept.
 */
export async function switchRecords(next: Language): Promise<void> {
  const previous = useSettings.getState().contentLanguage;
  if (next === previous) return;
  useSettings.getState().setContentLanguage(next);
  const name = (l: Language) => i18n.t(`language.called.${l}`);
  try {
    const r = await api().get<{ total?: number }>('events', { start_date: '1900-01-01', end_date: '2200-12-31', per_page: 1, i18n_language: next });
    toastInfo(i18n.t('language.switched', { count: Number(r.total ?? 0), language: name(next), previous: name(previous) }));
  } catch {
    toastInfo(i18n.t('language.switched_nocount', { language: name(next), previous: name(previous) }));
  }
}

export function LanguageSettings() {
  const { t } = useTranslation();
  const { uiLanguage, contentLanguage, setUiLanguage } = useSettings();
  return (
    <section className="languages" aria-labelledby="languages-heading">
      <h2 id="languages-heading" className="sidebar-heading">
        {t('language.title')}
      </h2>
      <label className="field-label" htmlFor="ui-language">
        {t('language.interface')}
      </label>
      <select id="ui-language" value={uiLanguage} onChange={(e) => setUiLanguage(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {t(`language.name.${l}`)}
          </option>
        ))}
      </select>
      <label className="field-label" htmlFor="content-language">
        {t('language.records')}
      </label>
      <select id="content-language" aria-describedby="content-language-hint" value={contentLanguage} onChange={(e) => void switchRecords(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {t(`language.name.${l}`)}
          </option>
        ))}
      </select>
      {/* Switching shows another set of events: said where it is chosen, before it surprises anyone. */}
      <p className="field-hint" id="content-language-hint">
        {t('language.records_hint')}
      </p>
    </section>
  );
}

/**
 * `drawer`: a narrow window, where the sidebar slides over the calendar from the "Menu" button;
 * hidden while closed, it closes on Escape and once a screen or an action is picked.
 */
export function Sidebar({ drawer = false }: { drawer?: boolean }) {
  const { t } = useTranslation();
  const screen = useUi((s) => s.screen);
  const setScreen = useUi((s) => s.setScreen);
  const open = useUi((s) => s.drawerOpen);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (drawer && open) ref.current?.querySelector<HTMLElement>('button')?.focus();
  }, [drawer, open]);
  const closeDrawer = () => {
    if (!drawer) return;
    useUi.getState().setDrawer(false);
    document.querySelector<HTMLElement>('.menu-button')?.focus({ preventScroll: true });
  };
  return (
    <aside
      ref={ref}
      id="sidebar"
      className={`sidebar ${drawer ? 'sidebar-drawer' : ''}`}
      aria-label={t('sidebar.label')}
      hidden={drawer && !open}
      onKeyDown={(e) => {
        if (drawer && e.key === 'Escape') {
          e.stopPropagation();
          closeDrawer();
        }
      }}
      onClick={(e) => {
        if ((e.target as HTMLElement).closest('[data-closes-drawer]')) closeDrawer();
      }}
    >
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          A
        </span>
        <h1 className="brand-name">Almanac</h1>
      </div>
      <button
        type="button"
        className="button button-primary new-event"
        data-closes-drawer
        title={t('shortcut.hint', { key: 'C' })}
        onClick={() => useUi.getState().openEditor({ kind: 'create', draft: newEventDraft() })}
      >
        <Icon name="plus" className="plus" />
        {t('action.new_event')}
      </button>
      <nav aria-label={t('sidebar.screens')}>
        <ul className="nav">
          {SCREENS.map(({ screen: s, icon }) => (
            <li key={s}>
              <button type="button" data-closes-drawer className={`nav-item ${screen === s ? 'active' : ''}`} aria-current={screen === s ? 'page' : undefined} onClick={() => setScreen(s)}>
                <Icon name={icon} className="nav-icon" />
                {t(`screen.${s}`)}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {screen === 'calendar' && <MiniMonth />}
      {screen === 'calendar' && <Calendars />}
      {screen === 'calendar' && <Filters />}
      {/* Not data-closes-drawer: its dialog lives in the sidebar and must stay shown. */}
      <SubscribeButton />
      <div className="sidebar-spacer" />
      <button type="button" data-closes-drawer className="nav-item import-button" onClick={() => useUi.getState().openImport()}>
        <Icon name="upload" className="nav-icon" />
        {t('import.open')}
      </button>
      <button type="button" data-closes-drawer className="nav-item import-button" title={t('shortcut.hint', { key: 'Ctrl+E' })} onClick={() => useUi.getState().openExport()}>
        <Icon name="download" className="nav-icon" />
        {t('export.open')}
      </button>
      {screen === 'calendar' && (
        <button type="button" data-closes-drawer className="nav-item import-button" onClick={printCalendar}>
          <Icon name="print" className="nav-icon" />
          {t('print.open')}
        </button>
      )}
      <button type="button" data-closes-drawer className="nav-item import-button" onClick={() => useUi.getState().openSettings()}>
        <Icon name="settings" className="nav-icon" />
        {t('settings.open')}
      </button>
      <LanguageSettings />
    </aside>
  );
}
