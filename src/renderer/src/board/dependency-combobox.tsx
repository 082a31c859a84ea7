// A searchable picker of the tasks a task waits for (New task's "Waits for", the "Wait for…" dialog): it offers only
// tasks the task can still wait for and lists the others with the reason (finished, or the cycle a link would close).
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { dependencyOffers, notOfferedText, type OfferableTask } from '../../../shared/dependency-offers';
import { useDesk } from '../state/store';

/** Enough to find a task by typing; a desk with thousands of tasks does not put them all in the page. */
const SHOWN = 40;

export function DependencyCombobox({ taskId, value, onChange, multiple, label }: {
  /** The task that would wait (undefined: a new task without an id yet). */
  taskId: string | undefined;
  value: readonly string[];
  onChange(next: string[]): void;
  multiple: boolean;
  label: string;
}) {
  const tasks = useDesk(useShallow((state) => state.order.map((id) => state.tasks[id]).filter((task) => task !== undefined && !task.archived)));
  const current = useDesk((state) => (taskId === undefined ? undefined : state.tasks[taskId]?.dependencies));
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const inputId = useId();

  const offers = useMemo(
    () => dependencyOffers(taskId, multiple ? [...(current ?? []), ...value] : (current ?? []), tasks as OfferableTask[]),
    [taskId, current, value, multiple, tasks],
  );
  const needle = query.trim().toLowerCase();
  const matching = offers.filter((offer) => !needle || offer.id.toLowerCase().includes(needle) || offer.title.toLowerCase().includes(needle));
  const offered = matching.filter((offer) => !offer.notOffered).slice(0, SHOWN);
  const refused = matching.filter((offer) => offer.notOffered && offer.notOffered.kind !== 'self' && !(multiple && value.includes(offer.id))).slice(0, SHOWN);
  const activeOffer = offered[Math.min(active, offered.length - 1)];

  const pick = (id: string) => {
    onChange(multiple ? [...value, id] : [id]);
    if (multiple) setQuery('');
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => Math.max(0, Math.min(offered.length - 1, index + step)));
    } else if (event.key === 'Enter' && activeOffer) {
      event.preventDefault();
      pick(activeOffer.id);
    } else if (event.key === 'Backspace' && multiple && query === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };
  const optionId = (id: string) => `${listId}-${encodeURIComponent(id)}`;

  return (
    <div className="dep-combo">
      <label htmlFor={inputId}>{label}</label>
      {multiple && value.length > 0 && (
        <ul className="dep-chips" aria-label={`${label}: picked`}>
          {value.map((id) => (
            <li key={id} className="dep dep-waiting">
              <span className="dep-label">{id}</span>
              <button type="button" className="dep-remove" aria-label={`Remove ${id}`} onClick={() => onChange(value.filter((v) => v !== id))}>×</button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={inputId}
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOffer ? optionId(activeOffer.id) : undefined}
        placeholder="Search by id or title"
        value={query}
        onChange={(event) => { setQuery(event.target.value); setActive(0); }}
        onKeyDown={onKeyDown}
        autoComplete="off"
      />
      <ul className="dep-options" role="listbox" id={listId} aria-label={`${label}: tasks`}>
        {offered.map((offer) => (
          <li
            key={offer.id}
            id={optionId(offer.id)}
            role="option"
            aria-selected={!multiple && value[0] === offer.id}
            className={`dep-option${offer === activeOffer ? ' dep-option-active' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(offer.id)}
          >
            <code>{offer.id}</code> <span>{offer.title}</span>
          </li>
        ))}
        {offered.length === 0 && <li className="dep-option-none" role="presentation">{needle ? 'No task it can wait for matches.' : 'No task it can wait for.'}</li>}
        {refused.map((offer) => (
          <li key={offer.id} role="option" aria-disabled="true" aria-selected="false" className="dep-option dep-option-refused">
            <code>{offer.id}</code> <span>{offer.title}</span>
            <span className="dep-why">Not offered: {offer.notOffered && notOfferedText(offer.notOffered)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
