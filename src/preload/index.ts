// The renderer's only window into Electron: a tiny typed bridge; domain traffic goes over HTTP, not IPC.
import { contextBridge } from 'electron';
import type { DeskBridge } from '../shared/desk-bridge';

const bridge = { runtime: 'electron' } satisfies DeskBridge;

contextBridge.exposeInMainWorld('desk', bridge);
