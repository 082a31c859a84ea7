// The renderer's only window into Electron: a tiny typed bridge of native extras; domain traffic goes over HTTP, not IPC.
// Each function names its own channel; nothing here forwards a channel name the page chooses.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { DESK_CHANNELS, type DeskBridge, type NativeResult } from '../shared/desk-bridge';

const bridge = {
  runtime: 'electron',
  pickRepository: () => ipcRenderer.invoke(DESK_CHANNELS.pickRepository) as Promise<string | null>,
  revealPath: (path: string) => ipcRenderer.invoke(DESK_CHANNELS.revealPath, path) as Promise<NativeResult>,
  openInEditor: (path: string) => ipcRenderer.invoke(DESK_CHANNELS.openInEditor, path) as Promise<NativeResult>,
  onFocusTask(listener: (taskId: string) => void) {
    // The page gets the task id only, never the IPC event (which would hand it `sender`).
    const forward = (_event: IpcRendererEvent, taskId: unknown) => {
      if (typeof taskId === 'string') listener(taskId);
    };
    ipcRenderer.on(DESK_CHANNELS.focusTask, forward);
    return () => {
      ipcRenderer.removeListener(DESK_CHANNELS.focusTask, forward);
    };
  },
} satisfies DeskBridge;

contextBridge.exposeInMainWorld('desk', bridge);
