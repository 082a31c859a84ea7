// Renderer entry: mounts the app. It talks to the core only over HTTP and one WebSocket, in Electron and in a browser alike.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './styles/base.css';
import './styles/board.css';

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
