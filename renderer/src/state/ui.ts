/** Which screen is open, which dialogs are up, which event is selected. */
import { create } from 'zustand';
import type { Event, Recurrence } from '@shared/api/records';
import type { Reminder } from '@shared/reminders';
import type { ImportRequest } from '../api/client';

export type Screen = 'calendar' | 'trash' | 'venues' | 'organizers' | 'categories' | 'tags';

/** A new event's starting point: wall times in `timezone`, as the API takes them. */
export interface EventDraft {
  title?: string;
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone: string;
  /** Chosen in quick create before "More options". */
  recurrence?: Recurrence | null;
  /** Chosen in quick create before "More options". */
  reminders?: Reminder[];
  /** Read by quick add before "More options": a venue's id, category names. */
  venue?: number;
  categories?: string[];
}

/** `from`: a duplicate starts as a copy of that event's fields. */
export type EditorTarget = { kind: 'edit'; event: Event } | { kind: 'create'; draft: EventDraft; from?: Event };

interface UiState {
  screen: Screen;
  editor: EditorTarget | null;
  quickCreate: EventDraft | null;
  /** The Quick add field (a sentence in plain words). */
  quickAdd: boolean;
  openQuickAdd(): void;
  closeQuickAdd(): void;
  /** The event whose details card is open, and where it was on screen (the card goes beside it). */
  details: Event | null;
  detailsAnchor: { top: number; left: number; right: number } | null;
  selectedEventId: number | null;
  /** The day whose full list of events is open ("+N more"). */
  dayList: string | null;
  /** A venue or organizer slug its screen should open once shown (permalinks). */
  openRequest: string | null;
  /** Bumped to ask the search box to take focus (the "/" shortcut). */
  searchFocusRequest: number;
  /** On a narrow window: whether the sidebar drawer is open. */
  drawerOpen: boolean;
  setDrawer(open: boolean): void;
  /** The export dialog (Export…, Ctrl/Cmd+E). */
  exportDialog: boolean;
  openExport(): void;
  closeExport(): void;
  /** The Settings dialog. */
  settingsDialog: boolean;
  openSettings(): void;
  closeSettings(): void;
  /** The list of keyboard shortcuts (`?`). */
  shortcuts: boolean;
  openShortcuts(): void;
  closeShortcuts(): void;
  /** The import dialog, open with what the file is expected to be (from the app menu). */
  importDialog: ImportRequest | null;
  setScreen(s: Screen): void;
  openEditor(t: EditorTarget): void;
  closeEditor(): void;
  openDetails(e: Event, anchor?: Element | null): void;
  closeDetails(): void;
  openQuickCreate(d: EventDraft): void;
  closeQuickCreate(): void;
  select(id: number | null): void;
  openDayList(day: string): void;
  closeDayList(): void;
  focusSearch(): void;
  requestOpen(slug: string | null): void;
  openImport(preset?: ImportRequest): void;
  closeImport(): void;
}

export const useUi = create<UiState>()((set, get) => ({
  screen: 'calendar',
  editor: null,
  quickCreate: null,
  quickAdd: false,
  details: null,
  detailsAnchor: null,
  selectedEventId: null,
  dayList: null,
  openRequest: null,
  searchFocusRequest: 0,
  importDialog: null,
  shortcuts: false,
  exportDialog: false,
  settingsDialog: false,
  drawerOpen: false,
  setDrawer: (drawerOpen) => set({ drawerOpen }),
  openExport: () => set({ exportDialog: true, editor: null, quickCreate: null, dayList: null, details: null }),
  closeExport: () => set({ exportDialog: false }),
  openSettings: () => set({ settingsDialog: true, editor: null, quickCreate: null, dayList: null, details: null }),
  closeSettings: () => set({ settingsDialog: false }),
  openShortcuts: () => set({ shortcuts: true }),
  closeShortcuts: () => set({ shortcuts: false }),
  setScreen: (screen) => set({ screen }),
  openEditor: (editor) => set({ editor, quickCreate: null, dayList: null, details: null }),
  openDetails: (details, anchor) => {
    const r = anchor?.getBoundingClientRect();
    set({ details, detailsAnchor: r ? { top: r.top, left: r.left, right: r.right } : null, selectedEventId: details.id, dayList: null });
  },
  closeDetails: () => set({ details: null }),
  closeEditor: () => set({ editor: null }),
  openQuickCreate: (quickCreate) => set({ quickCreate, editor: null, details: null }),
  closeQuickCreate: () => set({ quickCreate: null }),
  openQuickAdd: () => set({ quickAdd: true, quickCreate: null, editor: null, details: null, dayList: null }),
  closeQuickAdd: () => set({ quickAdd: false }),
  select: (selectedEventId) => set({ selectedEventId }),
  openDayList: (dayList) => set({ dayList }),
  closeDayList: () => set({ dayList: null }),
  requestOpen: (openRequest) => set({ openRequest }),
  openImport: (preset = {}) => set({ importDialog: preset, editor: null, quickCreate: null, dayList: null }),
  closeImport: () => set({ importDialog: null }),
  focusSearch: () => set({ screen: 'calendar', searchFocusRequest: get().searchFocusRequest + 1 }),
}));
