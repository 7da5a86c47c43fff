import { useTranslation } from 'react-i18next';
import { CalendarToolbar } from './calendar/CalendarToolbar';
import { CalendarView } from './calendar/CalendarView';
import { QuickCreate } from './calendar/QuickCreate';
import { QuickAdd } from './calendar/QuickAdd';
import { DayList } from './calendar/DayList';
import { EventDetails } from './calendar/EventDetails';
import { SearchResults } from './calendar/SearchResults';
import { useFilters } from './state/filters';
import { Toasts } from './components/Toasts';
import { ShortcutsDialog } from './components/ShortcutsDialog';
import { EventEditor } from './editor/EventEditor';
import { useShortcuts } from './keyboard';
import { ManageScreen } from './manage/ManageScreen';
import { TrashScreen } from './manage/TrashScreen';
import { Sidebar } from './sidebar/Sidebar';
import { useEvents } from './state/events';
import { useUi } from './state/ui';
import { useDataSync } from './sync';
import { useDeepLinks } from './deepLink';
import { useDesktopCommands } from './desktop';
import { useColorScheme } from './lib/useColorScheme';
import { COMPACT_QUERY, DRAWER_QUERY, useMediaQuery } from './lib/useMediaQuery';
import { useEffect } from 'react';
import { useCalendar } from './state/calendar';
import { Icon } from './components/Icon';
import { ImportDialog } from './transfer/ImportDialog';
import { ScopeDialogHost } from './recurrence/ScopeDialog';
import { ConflictConfirmHost } from './booking/ConflictWarning';
import { ExportDialog } from './transfer/ExportDialog';
import { SettingsDialog } from './settings/SettingsDialog';
import { ReminderBanners, useReminderStream } from './reminders/ReminderBanners';
import { useCalendarSettings } from './state/calendarSettings';

function CalendarScreen() {
  const { t } = useTranslation();
  const status = useEvents((s) => s.status);
  const error = useEvents((s) => s.error);
  const fetching = useEvents((s) => s.fetching);
  const errorStatus = useEvents((s) => s.errorStatus);
  const searching = useFilters((s) => s.search.trim() !== '');
  const settled = useCalendarSettings((s) => s.settled);
  return (
    <section className="calendar-screen" aria-label={t('screen.calendar')}>
      <CalendarToolbar />
      <div className="calendar-pane" aria-busy={fetching}>
        {fetching && <div className="progress" aria-hidden="true" />}
        {status === 'error' && error && (
          <div className="banner banner-error" role="alert">
            <span>
              {t('errors.load_failed', { message: error })}
              {errorStatus === 401 && <> {window.almanac ? t('errors.signed_out_app') : t('errors.signed_out_tab')}</>}
            </span>
            <button type="button" className="button button-small" onClick={() => void useEvents.getState().refresh().catch(() => {})}>
              {t('action.retry')}
            </button>
          </div>
        )}
        {status === 'loading' && (
          <div className="loading-overlay" role="status">
            {t('calendar.loading')}
          </div>
        )}
        {searching ? <SearchResults /> : settled && <CalendarView />}
      </div>
    </section>
  );
}

export function App() {
  const screen = useUi((s) => s.screen);
  const editor = useUi((s) => s.editor);
  const quick = useUi((s) => s.quickCreate);
  const quickAdd = useUi((s) => s.quickAdd);
  const dayList = useUi((s) => s.dayList);
  const details = useUi((s) => s.details);
  const importDialog = useUi((s) => s.importDialog);
  const shortcuts = useUi((s) => s.shortcuts);
  const exportDialog = useUi((s) => s.exportDialog);
  const settingsDialog = useUi((s) => s.settingsDialog);
  const { t } = useTranslation();
  const narrow = useMediaQuery(DRAWER_QUERY);
  const compact = useMediaQuery(COMPACT_QUERY);
  const drawerOpen = useUi((s) => s.drawerOpen);
  useEffect(() => useCalendar.getState().setCompact(compact), [compact]);
  useEffect(() => {
    if (!narrow) useUi.getState().setDrawer(false);
  }, [narrow]);
  useColorScheme();
  useDataSync();
  useShortcuts();
  useDeepLinks();
  useDesktopCommands();
  useReminderStream();
  return (
    <div className={`app ${narrow ? 'app-narrow' : ''}`}>
      {/* The first Tab stop: past the sidebar's buttons and filters, straight to the calendar. */}
      <a
        href="#main"
        className="skip-link"
        onClick={(e) => {
          e.preventDefault();
          useUi.getState().setScreen('calendar');
          document.getElementById('main')?.focus();
        }}
      >
        {t('a11y.skip')}
      </a>
      <Sidebar drawer={narrow} />
      {narrow && drawerOpen && <div className="drawer-backdrop" onClick={() => useUi.getState().setDrawer(false)} />}
      <main className="main" id="main" tabIndex={-1}>
        {narrow && (
          <button
            type="button"
            className="icon-button menu-button"
            aria-label={t('sidebar.menu')}
            aria-expanded={drawerOpen}
            aria-controls="sidebar"
            onClick={() => useUi.getState().setDrawer(!drawerOpen)}
          >
            <Icon name="menu" size={20} />
          </button>
        )}
        <ReminderBanners />
        {screen === 'calendar' && <CalendarScreen />}
        {screen === 'trash' && <TrashScreen />}
        {(screen === 'venues' || screen === 'organizers' || screen === 'categories' || screen === 'tags') && <ManageScreen key={screen} kind={screen} />}
      </main>
      {quick && <QuickCreate draft={quick} />}
      {quickAdd && <QuickAdd />}
      {dayList && <DayList day={dayList} />}
      {details && <EventDetails key={details.id} event={details} />}
      {editor && <EventEditor key={editor.kind === 'edit' ? `e${editor.event.id}` : 'new'} target={editor} />}
      {importDialog && <ImportDialog preset={importDialog} />}
      <ScopeDialogHost />
      <ConflictConfirmHost />
      {shortcuts && <ShortcutsDialog />}
      {exportDialog && <ExportDialog />}
      {settingsDialog && <SettingsDialog />}
      <Toasts />
    </div>
  );
}
