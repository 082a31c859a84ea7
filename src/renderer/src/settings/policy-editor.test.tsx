// @vitest-environment happy-dom
// The policy as a form and as JSON: both edit one value, Save sends it, and JSON that does not parse shows why and
// loses nothing.
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PolicyView } from '../../../shared/governance';
import { deskStore } from '../state/store';
import { resetDesk, seedDesk } from '../state/test-desk';
import { PolicyEditor } from './policy-editor';

const view: PolicyView = {
  policy: { version: 1, defaults: { capabilities: { execute: 'ask' }, allowedPaths: ['**'], deniedCommands: ['rm -rf'], requestsPerMinute: 60, sandbox: 'auto', readablePaths: [], hiddenPaths: [] }, agents: { claude: { capabilities: { fetch: 'allow' } } }, attentionGlobs: [] },
  agentsWithTokens: [],
};

function renderEditor() {
  const api = seedDesk([]);
  deskStore.setState({ policy: view });
  const saved = vi.spyOn(api, 'savePolicy').mockImplementation(async (policy) => ({ policy: policy as PolicyView['policy'], agentsWithTokens: [] }));
  render(<PolicyEditor />);
  return saved;
}

const jsonBox = () => screen.getByLabelText('Policy (JSON)') as HTMLTextAreaElement;

afterEach(resetDesk);

describe('policy editor', () => {
  it('changes made in the form show in the JSON, and Save sends them with what only the JSON shows', async () => {
    const saved = renderEditor();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Capability delete' }), 'deny');
    fireEvent.change(screen.getByLabelText('Network'), { target: { value: 'github.com\n*.npmjs.org\n' } });
    fireEvent.change(screen.getByLabelText('Prompts per hour'), { target: { value: '30' } });
    await userEvent.click(screen.getByRole('button', { name: 'JSON' }));
    const json = JSON.parse(jsonBox().value);
    expect(json.defaults).toMatchObject({ capabilities: { execute: 'ask', delete: 'deny' }, network: ['github.com', '*.npmjs.org'], promptsPerHour: 30 });
    expect(json.agents).toEqual({ claude: { capabilities: { fetch: 'allow' } } });
    await userEvent.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(saved).toHaveBeenCalledWith(json);
  });

  it('changes made in the JSON show in the form', async () => {
    renderEditor();
    await userEvent.click(screen.getByRole('button', { name: 'JSON' }));
    const next = { ...view.policy, defaults: { ...view.policy.defaults, capabilities: { execute: 'deny' }, concurrentTasks: 2 } };
    fireEvent.change(jsonBox(), { target: { value: JSON.stringify(next) } });
    await userEvent.click(screen.getByRole('button', { name: 'Form' }));
    expect((screen.getByRole('combobox', { name: 'Capability execute' }) as HTMLSelectElement).value).toBe('deny');
    expect((screen.getByLabelText('Tasks at once') as HTMLInputElement).value).toBe('2');
  });

  it('keeps JSON that does not parse as typed, says why, and opens the form only once it parses', async () => {
    const saved = renderEditor();
    await userEvent.click(screen.getByRole('button', { name: 'JSON' }));
    const broken = `${jsonBox().value.slice(0, -1)},`;
    fireEvent.change(jsonBox(), { target: { value: broken } });
    expect(screen.getByText(/^Not valid JSON/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save policy' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Form' }));
    expect(screen.getByRole('alert').textContent).toMatch(/^Fix the JSON before the form can show it/);
    expect(jsonBox().value).toBe(broken);
    expect(saved).not.toHaveBeenCalled();
  });
});
