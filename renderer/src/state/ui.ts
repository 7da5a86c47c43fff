/** Which screen is open, which dialogs are up, which event is selected. */
import { create } from 'zustand';
import type { Event, Recurrence } from '@shared/api/records';
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
}

export type EditorTarget = { kind: 'edit'; event: Event } | { kind: 'create'; draft: EventDraft };

interface UiState {
  screen: Screen;
  editor: EditorTarget | null;
  quickCreate: EventDraft | null;
  selectedEventId: number | null;
  /** The day whose full list of events is open ("+N more"). */
  dayList: string | null;
  /** A venue or organizer slug its screen should open once shown (permalinks). */
  openRequest: string | null;
  /** Bumped to ask the search box to take focus (the "/" shortcut). */
  searchFocusRequest: number;
  /** The import dialog, open with what the file is expected to be (from the app menu). */
  importDialog: ImportRequest | null;
  setScreen(s: Screen): void;
  openEditor(t: EditorTarget): void;
  closeEditor(): void;
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
  selectedEventId: null,
  dayList: null,
  openRequest: null,
  searchFocusRequest: 0,
  importDialog: null,
  setScreen: (screen) => set({ screen }),
  openEditor: (editor) => set({ editor, quickCreate: null, dayList: null }),
  closeEditor: () => set({ editor: null }),
  openQuickCreate: (quickCreate) => set({ quickCreate, editor: null }),
  closeQuickCreate: () => set({ quickCreate: null }),
  select: (selectedEventId) => set({ selectedEventId }),
  openDayList: (dayList) => set({ dayList }),
  closeDayList: () => set({ dayList: null }),
  requestOpen: (openRequest) => set({ openRequest }),
  openImport: (preset = {}) => set({ importDialog: preset, editor: null, quickCreate: null, dayList: null }),
  closeImport: () => set({ importDialog: null }),
  focusSearch: () => set({ screen: 'calendar', searchFocusRequest: get().searchFocusRequest + 1 }),
}));
