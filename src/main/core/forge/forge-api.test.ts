import { describe, expect, it } from 'vitest';
import { forgeMessage } from './forge-api';
import { summarizeCheckRuns } from './github-api';
import { pipelineChecks } from './gitlab-api';

describe('forgeMessage', () => {
  it('reads GitHub\'s message with its validation errors', () => {
    expect(forgeMessage(JSON.stringify({ message: 'Validation Failed', errors: [{ message: 'No commits between main and b' }] }))).toBe('Validation Failed: No commits between main and b');
  });

  it('reads GitLab\'s message as a string, a list or per field, and its `error`', () => {
    expect(forgeMessage(JSON.stringify({ message: '404 Project Not Found' }))).toBe('404 Project Not Found');
    expect(forgeMessage(JSON.stringify({ message: ['Another open merge request already exists'] }))).toBe('Another open merge request already exists');
    expect(forgeMessage(JSON.stringify({ message: { target_branch: ['is invalid'] } }))).toBe('target_branch is invalid');
    expect(forgeMessage(JSON.stringify({ error: 'insufficient_scope' }))).toBe('insufficient_scope');
  });

  it('keeps the start of a body that is not JSON (a proxy\'s page)', () => {
    expect(forgeMessage('<html>Bad gateway</html>')).toBe('<html>Bad gateway</html>');
  });
});

describe('checks', () => {
  it('sums GitHub\'s check runs: a failure fails, an unfinished run is pending, none is none', () => {
    expect(summarizeCheckRuns([])).toEqual({ state: 'none', total: 0, passed: 0, failed: 0 });
    expect(summarizeCheckRuns([{ status: 'completed', conclusion: 'success' }, { status: 'queued', conclusion: null }])).toMatchObject({ state: 'pending', passed: 1 });
    expect(summarizeCheckRuns([{ status: 'completed', conclusion: 'success' }, { status: 'completed', conclusion: 'failure' }])).toMatchObject({ state: 'failure', failed: 1 });
  });

  it('reads GitLab\'s head pipeline', () => {
    expect(pipelineChecks('failed')).toMatchObject({ state: 'failure' });
    expect(pipelineChecks('running')).toMatchObject({ state: 'pending' });
    expect(pipelineChecks(undefined)).toMatchObject({ state: 'none' });
  });
});
