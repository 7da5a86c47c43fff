/**
 * Single-key shortcuts, as Google Calendar has them: c new, q quick add, t today, j/n next and k/p previous
 * (a month, week or day, as the view shows), y/m/w/d/a views, / search,
 * Delete trashes the selected event, Ctrl+Z undoes, ? lists them all (components/ShortcutsDialog). Keys typed into a field or inside a dialog
 * belong to that field or dialog.
 */
import { useEffect } from 'react';
import { useCalendar, type ViewName } from './state/calendar';
import { trashEvent, undoLast } from './state/eventActions';
import { useEvents } from './state/events';
import { newEventDraft } from './state/drafts';
import { useUi } from './state/ui';

const VIEW_KEYS: Record<string, ViewName> = { y: 'year', m: 'month', w: 'week', d: 'day', a: 'agenda' };
/** Google Calendar's keys for the next and the previous period, both pairs. */
const NEXT_KEYS = new Set(['j', 'n']);
const PREVIOUS_KEYS = new Set(['k', 'p']);

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
  }
  return false;
}

/** The event the keyboard is on: the focused one, else the one last clicked. */
function targetEventId(): number | null {
  const el = document.activeElement?.closest?.('[data-event-id]') ?? document.activeElement?.querySelector?.('[data-event-id]');
  const id = el?.getAttribute('data-event-id');
  if (id) return Number(id);
  return useUi.getState().selectedEventId;
}

export function handleShortcut(e: KeyboardEvent): boolean {
  if (e.defaultPrevented || e.isComposing) return false;
  const ui = useUi.getState();
  const dialogOpen = !!document.querySelector('dialog[open]') || ui.editor !== null || ui.quickCreate !== null || ui.quickAdd;
  if (dialogOpen || isTyping(e.target)) return false;

  const key = e.key;
  if ((e.ctrlKey || e.metaKey) && !e.altKey && key.toLowerCase() === 'z' && !e.shiftKey) {
    void undoLast();
    return true;
  }
  // As the desktop menu's File > Export (whose accelerator gets there first in the app).
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && key.toLowerCase() === 'e') {
    ui.openExport();
    return true;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return false;

  if (key === 'Delete' || key === 'Backspace') {
    const id = targetEventId();
    const event = id ? useEvents.getState().events.find((x) => x.id === id) : undefined;
    if (!event || ui.screen !== 'calendar') return false;
    void trashEvent(event);
    return true;
  }
  if (key === '?') {
    ui.openShortcuts();
    return true;
  }
  if (key === '/') {
    ui.focusSearch();
    return true;
  }
  const lower = key.toLowerCase();
  if (lower === 'c') {
    ui.setScreen('calendar');
    ui.openEditor({ kind: 'create', draft: newEventDraft() });
    return true;
  }
  if (lower === 'q') {
    ui.setScreen('calendar');
    ui.openQuickAdd();
    return true;
  }
  if (NEXT_KEYS.has(lower) || PREVIOUS_KEYS.has(lower)) {
    if (ui.screen !== 'calendar') return false;
    if (NEXT_KEYS.has(lower)) useCalendar.getState().next();
    else useCalendar.getState().prev();
    return true;
  }
  if (lower === 't') {
    ui.setScreen('calendar');
    useCalendar.getState().today();
    return true;
  }
  if (VIEW_KEYS[lower]) {
    ui.setScreen('calendar');
    useCalendar.getState().setView(VIEW_KEYS[lower]);
    return true;
  }
  return false;
}

export function useShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (handleShortcut(e)) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
