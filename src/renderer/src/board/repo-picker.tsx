// The repository picker in the top bar: which repository's tasks the board shows (all, or one), and opening or
// closing a repository. With one repository open it offers only "Add repository…".
import { useEffect } from 'react';
import { desk, useDesk } from '../state/store';
import { PlusIcon } from '../ui/icons';

export function RepoPicker() {
  const repos = useDesk((state) => state.repos);
  const chosen = useDesk((state) => state.filters.repo ?? '');
  const connected = useDesk((state) => state.api !== undefined);
  useEffect(() => {
    if (connected) void desk().loadRepos();
  }, [connected]);
  if (!repos) return null;
  const current = repos.find((repo) => repo.name === chosen);

  const remove = async (name: string) => {
    const problem = await desk().removeRepo(name);
    if (problem) desk().showAlert(problem);
  };

  return (
    <div className="repo-picker" role="group" aria-label="Repositories">
      {repos.length > 1 && (
        <select aria-label="Repository" value={chosen} onChange={(event) => desk().setFilters({ repo: event.target.value })}>
          <option value="">All repositories</option>
          {repos.map((repo) => <option key={repo.name} value={repo.name}>{repo.name}{repo.isDefault ? ' (default)' : ''}</option>)}
        </select>
      )}
      {current && !current.isDefault && (
        <button type="button" className="quiet small" onClick={() => void remove(current.name)} title={`Stop working in ${current.path}; nothing on disk is removed`}>
          Remove {current.name}
        </button>
      )}
      <button type="button" className="quiet small icon-button" aria-label="Add repository…" title="Add repository…" onClick={() => desk().openDialog({ kind: 'add-repo' })}><PlusIcon /></button>
    </div>
  );
}
