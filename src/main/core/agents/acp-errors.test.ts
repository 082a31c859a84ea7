// What each failure of a served request sounds like to the agent: ACP's code for its cause, and words naming it.
import { describe, expect, it } from 'vitest';
import { fileError, protocolError, RESOURCE_NOT_FOUND } from './acp-errors';

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: failed`), { code });

describe('fileError', () => {
  it('calls a missing file a missing resource, with the path the agent asked for', () => {
    expect(fileError(errno('ENOENT'), 'src/new.ts', 'read')).toMatchObject({ code: RESOURCE_NOT_FOUND, message: 'Resource not found: src/new.ts', data: { uri: 'src/new.ts' } });
  });

  it('says a write below a file cannot be made, rather than that the file is missing', () => {
    expect(fileError(errno('ENOTDIR'), 'a.txt/b.txt', 'write')).toMatchObject({ code: -32602, message: expect.stringContaining('a folder on its path is a file') });
  });

  it('tells a permission problem on the desk\'s side from a refusal, and says who can fix it', () => {
    expect(fileError(errno('EACCES'), 'locked.txt', 'read')).toMatchObject({ code: -32603, message: expect.stringContaining('permissions') });
  });

  it('names a full disk', () => {
    expect(fileError(errno('ENOSPC'), 'big.bin', 'write')).toMatchObject({ code: -32603, message: expect.stringContaining('disk is full') });
  });
});

describe('protocolError', () => {
  it('gives an unexpected failure its cause instead of a bare internal error', () => {
    const error = protocolError(new TypeError('cannot read properties of undefined'));
    expect(error.code).toBe(-32603);
    expect(error.message).toContain('cannot read properties of undefined');
  });
});
