// The renderer's store instance and the hook components read it with (always through a selector).
import { useStore } from 'zustand';
import { createDeskStore } from './desk-store';
import type { DeskState } from './store-types';

export const deskStore = createDeskStore();

export function useDesk<T>(selector: (state: DeskState) => T): T {
  return useStore(deskStore, selector);
}

/** Actions for event handlers: reading them never subscribes a component. */
export const desk = (): DeskState => deskStore.getState();
