import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, restoreWindow } from './window-state';

const laptop = { x: 0, y: 25, width: 1440, height: 875 };
const external = { x: 1440, y: 0, width: 2560, height: 1415 };

describe('where the board window opens', () => {
  it('opens at the default size, centred, the first time', () => {
    expect(restoreWindow(undefined, [laptop], laptop)).toEqual({ bounds: DEFAULT_WINDOW_SIZE, maximized: false });
  });

  it('reopens where it was closed', () => {
    const saved = { x: 1600, y: 100, width: 1200, height: 900, maximized: false };
    expect(restoreWindow(saved, [laptop, external], laptop).bounds).toEqual({ x: 1600, y: 100, width: 1200, height: 900 });
  });

  it('reopens maximized when it was', () => {
    expect(restoreWindow({ x: 10, y: 40, width: 800, height: 600, maximized: true }, [laptop], laptop).maximized).toBe(true);
  });

  it('is pulled back onto the display when it hung over an edge', () => {
    const saved = { x: 1000, y: 700, width: 800, height: 600, maximized: false };
    expect(restoreWindow(saved, [laptop], laptop).bounds).toEqual({ x: 640, y: 300, width: 800, height: 600 });
  });

  it('shrinks to fit a smaller display', () => {
    const saved = { x: 0, y: 25, width: 2400, height: 1300, maximized: false };
    expect(restoreWindow(saved, [laptop], laptop).bounds).toEqual({ x: 0, y: 25, width: 1440, height: 875 });
  });

  it('comes back centred on the primary display when its display is gone', () => {
    const saved = { x: 2000, y: 200, width: 1600, height: 1000, maximized: false };
    expect(restoreWindow(saved, [laptop], laptop).bounds).toEqual({ width: 1440, height: 875 });
  });

  it('lands on the display it overlaps most', () => {
    const saved = { x: 1300, y: 100, width: 1000, height: 700, maximized: false };
    expect(restoreWindow(saved, [laptop, external], laptop).bounds).toEqual({ x: 1440, y: 100, width: 1000, height: 700 });
  });
});
