// Renderer entry: mounts the app. It talks to the core only over HTTP, in Electron and in a browser alike.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { TaskList } from './task-list';
import { connectionFromFragment } from './connection';

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><TaskList connection={connectionFromFragment(window.location)} /></StrictMode>);
