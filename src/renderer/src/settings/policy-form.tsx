// The governance policy's defaults as a form: each capability's mode, paths, denied commands, network hosts, readable
// paths, the sandbox and rate limits. Per-agent overrides stay in the JSON view.
import { useEffect, useId, useState } from 'react';
import { DEFAULT_CAPABILITIES, DEFAULT_REQUESTS_PER_MINUTE, type Capability } from '../../../shared/governance';
import { defaultsOf, limitOf, linesOf, listText, withCapability, withDefault, type PolicyValue } from './policy-model';

const CAPABILITIES = Object.keys(DEFAULT_CAPABILITIES) as Capability[];

export function PolicyForm({ value, onChange }: { value: PolicyValue; onChange(next: PolicyValue): void }) {
  const defaults = defaultsOf(value);
  const capabilities = (defaults.capabilities ?? {}) as Record<string, string | undefined>;
  const set = (key: string, field: unknown) => onChange(withDefault(value, key, field));

  return (
    <div className="policy-form">
      <fieldset className="policy-capabilities">
        <legend>Capabilities</legend>
        {CAPABILITIES.map((capability) => (
          <label key={capability} className="policy-capability">
            <span>{capability}</span>
            <select
              aria-label={`Capability ${capability}`}
              value={capabilities[capability] ?? ''}
              onChange={(event) => onChange(withCapability(value, capability, event.target.value || undefined))}
            >
              <option value="">built-in ({DEFAULT_CAPABILITIES[capability]})</option>
              <option value="allow">allow</option>
              <option value="ask">ask</option>
              <option value="deny">deny</option>
            </select>
          </label>
        ))}
      </fieldset>
      <ListField label="Allowed paths" hint="Globs inside the worktree, one a line (built-in: **)." list={defaults.allowedPaths} onChange={(list) => set('allowedPaths', list)} />
      <ListField label="Denied commands" hint="Regular expressions matched against the whole command line, one a line." list={defaults.deniedCommands} onChange={(list) => set('deniedCommands', list)} />
      <ListField
        label="Network"
        hint="Hosts agents may reach, one a line (*.example.com, host:port; * opens the network). Empty: each agent's own list."
        list={defaults.network}
        onChange={(list) => set('network', list.length === 0 ? undefined : list)}
      />
      <ListField label="Readable paths" hint="Hidden paths (e.g. ~/notes, ~/.config/gh) agents may read after all, one a line." list={defaults.readablePaths} onChange={(list) => set('readablePaths', list)} />
      <ListField label="Hidden paths" hint="More paths agents may not read (e.g. /srv/secrets, ~/.nvm/private), one a line." list={defaults.hiddenPaths} onChange={(list) => set('hiddenPaths', list)} />
      <div className="form-row">
        <LimitField label="Prompts per hour" placeholder="no limit" value={defaults.promptsPerHour} onChange={(limit) => set('promptsPerHour', limit)} />
        <LimitField label="Tasks at once" placeholder="no limit" value={defaults.concurrentTasks} onChange={(limit) => set('concurrentTasks', limit)} />
        <LimitField label="Requests per minute" placeholder={String(DEFAULT_REQUESTS_PER_MINUTE)} value={defaults.requestsPerMinute} onChange={(limit) => set('requestsPerMinute', limit)} />
      </div>
      <SandboxField value={defaults.sandbox} onChange={(mode) => set('sandbox', mode)} />
    </div>
  );
}

/** A list, one entry a line; what is typed is kept as typed (blank lines too) until the list changes elsewhere. */
function ListField({ label, hint, list, onChange }: { label: string; hint: string; list: unknown; onChange(list: string[]): void }) {
  const id = useId();
  const [draft, setDraft] = useState(() => listText(list));
  useEffect(() => {
    // Changed in the JSON view: show it; changed from here: leave the draft (and its cursor) alone.
    setDraft((current) => (listText(linesOf(current)) === listText(list) ? current : listText(list)));
  }, [list]);
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="code-input" rows={3} spellCheck={false} value={draft} onChange={(event) => {
        setDraft(event.target.value);
        onChange(linesOf(event.target.value));
      }} />
      <p className="hint">{hint}</p>
    </div>
  );
}

function LimitField({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: unknown; onChange(limit: number | string | undefined): void }) {
  const id = useId();
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" inputMode="numeric" placeholder={placeholder} value={value === undefined ? '' : String(value)} onChange={(event) => onChange(limitOf(event.target.value))} />
    </div>
  );
}

function SandboxField({ value, onChange }: { value: unknown; onChange(mode: string | undefined): void }) {
  const id = useId();
  return (
    <div className="form-field">
      <label htmlFor={id}>Sandbox</label>
      <select id={id} value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">built-in (auto)</option>
        <option value="auto">auto: where this machine has one</option>
        <option value="required">required: refuse to run without it</option>
        <option value="off">off</option>
      </select>
    </div>
  );
}
