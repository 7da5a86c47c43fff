/** The left column: new event, screens, filters, languages. */
import { useTranslation } from 'react-i18next';
import { LANGUAGES, useSettings, type Language } from '../state/settings';
import { useUi, type Screen } from '../state/ui';
import { newEventDraft } from '../state/drafts';
import { Filters } from './Filters';
import { Icon, type IconName } from '../components/Icon';

const SCREENS: Array<{ screen: Screen; icon: IconName }> = [
  { screen: 'calendar', icon: 'calendar' },
  { screen: 'venues', icon: 'pin' },
  { screen: 'organizers', icon: 'people' },
  { screen: 'categories', icon: 'folder' },
  { screen: 'tags', icon: 'tag' },
  { screen: 'trash', icon: 'trash' },
];

export function LanguageSettings() {
  const { t } = useTranslation();
  const { uiLanguage, contentLanguage, setUiLanguage, setContentLanguage } = useSettings();
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
      <select id="content-language" value={contentLanguage} onChange={(e) => setContentLanguage(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {t(`language.name.${l}`)}
          </option>
        ))}
      </select>
    </section>
  );
}

export function Sidebar() {
  const { t } = useTranslation();
  const screen = useUi((s) => s.screen);
  const setScreen = useUi((s) => s.setScreen);
  return (
    <aside className="sidebar" aria-label={t('sidebar.label')}>
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          A
        </span>
        <h1 className="brand-name">Almanac</h1>
      </div>
      <button
        type="button"
        className="button button-primary new-event"
        title={t('shortcut.hint', { key: 'N' })}
        onClick={() => useUi.getState().openEditor({ kind: 'create', draft: newEventDraft() })}
      >
        <Icon name="plus" className="plus" />
        {t('action.new_event')}
      </button>
      <nav aria-label={t('sidebar.screens')}>
        <ul className="nav">
          {SCREENS.map(({ screen: s, icon }) => (
            <li key={s}>
              <button type="button" className={`nav-item ${screen === s ? 'active' : ''}`} aria-current={screen === s ? 'page' : undefined} onClick={() => setScreen(s)}>
                <Icon name={icon} className="nav-icon" />
                {t(`screen.${s}`)}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {screen === 'calendar' && <Filters />}
      <div className="sidebar-spacer" />
      <button type="button" className="nav-item import-button" onClick={() => useUi.getState().openImport()}>
        <Icon name="upload" className="nav-icon" />
        {t('import.open')}
      </button>
      <button type="button" className="nav-item import-button" title={t('shortcut.hint', { key: 'Ctrl+E' })} onClick={() => useUi.getState().openExport()}>
        <Icon name="download" className="nav-icon" />
        {t('export.open')}
      </button>
      <LanguageSettings />
    </aside>
  );
}
