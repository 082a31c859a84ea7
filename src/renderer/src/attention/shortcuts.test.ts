// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { shortcutFor } from './shortcuts';

const press = (key: string, target: EventTarget | null, modifiers: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
  shortcutFor({ key, target, ctrlKey: false, metaKey: false, altKey: false, ...modifiers });

function element(html: string, selector: string): HTMLElement {
  document.body.innerHTML = html;
  return document.querySelector(selector) as HTMLElement;
}

afterEach(() => { document.body.innerHTML = ''; });

describe('keyboard shortcuts', () => {
  it('maps each key to its action from the page', () => {
    expect(['n', '/', 'j', 'k', 'ArrowDown', 'ArrowUp', 'a', 'r', '?'].map((key) => press(key, document.body)))
      .toEqual(['new-task', 'search', 'next', 'previous', 'next', 'previous', 'approve', 'refine', 'help']);
  });

  it('leaves keys typed into a field to the field', () => {
    for (const [html, selector] of [
      ['<input type="text">', 'input'], ['<textarea></textarea>', 'textarea'], ['<select><option>a</option></select>', 'select'],
      ['<div contenteditable="true"><b>x</b></div>', 'b'],
    ] as const) {
      expect(press('n', element(html, selector)), html).toBeUndefined();
      expect(press('j', element(html, selector)), html).toBeUndefined();
    }
  });

  it('leaves keys with Ctrl, Cmd or Alt to the browser', () => {
    expect(press('n', document.body, { ctrlKey: true })).toBeUndefined();
    expect(press('r', document.body, { metaKey: true })).toBeUndefined();
    expect(press('a', document.body, { altKey: true })).toBeUndefined();
  });

  it('does nothing inside a dialog', () => {
    expect(press('n', element('<div role="dialog"><button>Close</button></div>', 'button'))).toBeUndefined();
  });

  it('moves between cards with arrows only from a card or the page, so the activity log still scrolls', () => {
    expect(press('ArrowDown', element('<article class="card" tabindex="0"></article>', 'article'))).toBe('next');
    expect(press('ArrowDown', element('<div role="log" tabindex="0"></div>', 'div'))).toBeUndefined();
    expect(press('j', element('<div role="log" tabindex="0"></div>', 'div'))).toBe('next');
  });
});
