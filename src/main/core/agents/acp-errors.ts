// How the desk answers an agent's request it cannot serve, in the codes ACP defines (JSON-RPC's own, plus -32002
// "Resource not found"), each with words that say what happened: never a bare "Internal error" for a known cause.
import { isDeskError } from '../../../shared/desk-error';
import { INTERNAL_ERROR, INVALID_PARAMS, JsonRpcError } from '../../../shared/json-rpc-peer';

/** ACP's "Resource not found" (a file, a terminal). Agents such as Gemini CLI create a file after this answer. */
export const RESOURCE_NOT_FOUND = -32002;

/** Worded as the SDK's `RequestError.resourceNotFound` and as editors answer, since agents match on these words. */
export function resourceNotFound(uri: string): JsonRpcError {
  return new JsonRpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

/** A file system failure (Node's errno code) of reading or writing `path`, as the agent should hear it. Pure. */
export function fileError(error: unknown, path: string, op: 'read' | 'write'): JsonRpcError {
  if (error instanceof JsonRpcError) return error;
  const code = errnoOf(error);
  const verb = op === 'read' ? 'read' : 'write';
  switch (code) {
    case 'ENOENT':
      return resourceNotFound(path);
    case 'ENOTDIR':
      // Reading `a.txt/b` where a.txt is a file: there is no such file. Writing there cannot make one.
      return op === 'read' ? resourceNotFound(path) : new JsonRpcError(INVALID_PARAMS, `Cannot write ${path}: a folder on its path is a file.`);
    case 'EISDIR':
      return new JsonRpcError(INVALID_PARAMS, `Cannot ${verb} ${path}: it is a directory, not a file.`);
    case 'ENAMETOOLONG':
      return new JsonRpcError(INVALID_PARAMS, `Cannot ${verb} ${path}: the name is too long.`);
    case 'EACCES':
    case 'EPERM':
      return new JsonRpcError(INTERNAL_ERROR, `Cannot ${verb} ${path}: the desk has no permission to (${code}); its owner must change the file's permissions.`);
    case 'ENOSPC':
    case 'EDQUOT':
      return new JsonRpcError(INTERNAL_ERROR, `Cannot write ${path}: the disk is full (${code}).`);
    default:
      return protocolError(error);
  }
}

/**
 * Any failure of a request the desk serves, as the JSON-RPC error to answer with. Pure. The desk's own errors keep
 * their words and map by kind; anything else says it is the desk's fault, with the cause.
 */
export function protocolError(error: unknown): JsonRpcError {
  if (error instanceof JsonRpcError) return error;
  if (isDeskError(error)) {
    const data = { deskCode: error.code };
    if (error.kind === 'not_found') return new JsonRpcError(RESOURCE_NOT_FOUND, error.message, data);
    if (error.kind === 'invalid' || error.kind === 'malformed' || error.kind === 'forbidden') return new JsonRpcError(INVALID_PARAMS, error.message, data);
    return new JsonRpcError(INTERNAL_ERROR, error.message, data);
  }
  const cause = error instanceof Error ? error.message : String(error);
  return new JsonRpcError(INTERNAL_ERROR, `Internal error in Assignment Desk: ${cause}. The desk's log has the details; retry, or report it.`);
}

function errnoOf(error: unknown): string | undefined {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' ? (error as NodeJS.ErrnoException).code : undefined;
}
