// What opening, choosing and closing repositories refuses, as DeskErrors.
import { DeskError } from '../../../shared/desk-error';

export const unknownRepository = (name: string, open: readonly string[]) =>
  new DeskError('not_found', 'unknown_repository', `No open repository named "${name}"; open: ${open.join(', ')}`, { name, open });

export const repositoryNameTaken = (name: string, path: string) =>
  new DeskError('conflict', 'repository_name_taken', `A repository named "${name}" is open already (${path}); choose another name`, { name, path });

export const repositoryOpen = (name: string, path: string) =>
  new DeskError('conflict', 'repository_open', `${path} is open already, as "${name}"`, { name, path });

export const defaultRepositoryFixed = (name: string) =>
  new DeskError('conflict', 'default_repository', `"${name}" is the default repository (the one / speaks for); it cannot be removed`, { name });

/** `tasks`: the ids of its tasks that have not finished. */
export const repositoryBusy = (name: string, tasks: readonly string[]) =>
  new DeskError('conflict', 'repository_busy',
    `Repository "${name}" has unfinished tasks: ${tasks.join(', ')}; cancel them or let them finish, then remove it`, { name, tasks });
