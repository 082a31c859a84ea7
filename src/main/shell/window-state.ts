// Where the board window opens: the size and place it had last time, kept on a display that still exists. Pure.
import { z } from 'zod';

export interface Rect { x: number; y: number; width: number; height: number }
/** Without x and y, Electron centres the window on the primary display. */
export interface WindowBounds { x?: number; y?: number; width: number; height: number }

export const SavedWindow = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maximized: z.boolean().default(false),
});
export type SavedWindow = z.infer<typeof SavedWindow>;

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 } as const;
const MIN_SIZE = { width: 480, height: 320 } as const;

/**
 * The saved bounds moved and shrunk as little as needed to sit wholly inside the work area of the display they
 * overlap most; when they overlap none (a display was unplugged), the saved size centred on the primary display.
 */
export function restoreWindow(saved: SavedWindow | undefined, workAreas: readonly Rect[], primary: Rect): { bounds: WindowBounds; maximized: boolean } {
  if (!saved) return { bounds: fitSize(DEFAULT_WINDOW_SIZE, primary), maximized: false };
  const display = mostOverlapped(saved, workAreas);
  if (!display) return { bounds: fitSize(saved, primary), maximized: saved.maximized };
  const { width, height } = fitSize(saved, display);
  return {
    bounds: {
      x: clamp(saved.x, display.x, display.x + display.width - width),
      y: clamp(saved.y, display.y, display.y + display.height - height),
      width,
      height,
    },
    maximized: saved.maximized,
  };
}

function fitSize(size: { width: number; height: number }, area: Rect): { width: number; height: number } {
  return {
    width: Math.round(clamp(size.width, Math.min(MIN_SIZE.width, area.width), area.width)),
    height: Math.round(clamp(size.height, Math.min(MIN_SIZE.height, area.height), area.height)),
  };
}

function mostOverlapped(rect: Rect, areas: readonly Rect[]): Rect | undefined {
  let best: Rect | undefined;
  let bestArea = 0;
  for (const area of areas) {
    const overlap = overlapArea(rect, area);
    if (overlap > bestArea) {
      best = area;
      bestArea = overlap;
    }
  }
  return best;
}

function overlapArea(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}
