// Search and filters over the board: text (id, title, known prompt), agent and status.
import { useShallow } from 'zustand/react/shallow';
import type { TaskStatus } from '../../../shared/task';
import { STATUS_LABELS } from '../../../shared/task-status-labels';
import { countNeedingYou } from '../attention/attention';
import { agentsOnBoard } from '../state/selectors';
import { desk, useDesk } from '../state/store';

const STATUSES = Object.entries(STATUS_LABELS).map(([value, label]) => ({ value: value as TaskStatus, label }));

export function Filters() {
  const filters = useDesk((state) => state.filters);
  const agents = useDesk(useShallow(agentsOnBoard));
  const needingYou = useDesk((state) => countNeedingYou(state.tasks));
  return (
    <div className="filters" role="search">
      <input
        type="text"
        className="filter-search"
        aria-label="Search tasks"
        placeholder="Search tasks"
        value={filters.search}
        onChange={(event) => desk().setFilters({ search: event.target.value })}
      />
      <select aria-label="Agent filter" value={filters.agent} onChange={(event) => desk().setFilters({ agent: event.target.value })}>
        <option value="">All agents</option>
        {agents.map((agent) => <option key={agent} value={agent}>{agent}</option>)}
      </select>
      <select
        aria-label="Status filter"
        value={filters.status}
        onChange={(event) => desk().setFilters({ status: event.target.value as TaskStatus | '' })}
      >
        <option value="">All statuses</option>
        {STATUSES.map((status) => <option key={status.value} value={status.value}>{status.label}</option>)}
      </select>
      <button
        type="button"
        className={`small needs-you${needingYou > 0 ? ' needs-you-some' : ''}`}
        aria-pressed={filters.needsYou === true}
        title="Only tasks waiting for your answer or your review"
        onClick={() => desk().setFilters({ needsYou: !filters.needsYou })}
      >
        Needs you <span className="needs-you-count">{needingYou}</span>
      </button>
      <button
        type="button"
        aria-pressed={filters.archived === true}
        title="Show only archived tasks (finished tasks put away from the board)"
        onClick={() => {
          const archived = !filters.archived;
          desk().setFilters({ archived });
          if (archived) void desk().loadArchived();
        }}
      >
        Archived
      </button>
    </div>
  );
}
