// The pre-receive hook of a task's exchange repository: the one place a push from the cluster is
// judged. git runs it with the pushed objects still in quarantine, so a refused push leaves nothing.

/** Environment variables receive-pack passes on to the hook: the task's branch and start commit. */
export const HOOK_BRANCH_VARIABLE = 'DESK_EXCHANGE_BRANCH';
export const HOOK_START_VARIABLE = 'DESK_EXCHANGE_START';
/** The repository's own git dir: what it already holds was not made by the container. */
export const HOOK_REPOSITORY_VARIABLE = 'DESK_EXCHANGE_REPOSITORY';

/**
 * Accepts only an update of exactly refs/heads/<branch> to a commit that descends from the start commit
 * and from the branch's current commit (no deletion, no other ref, no rewrite), whose new commits are all new to
 * the repository: a merge of a commit the branch does not reach (another branch's, its sha learnt somehow) would
 * hand that history to the container on its next fetch. Every refusal says why on
 * stderr, which git relays to the pusher as "remote: …".
 */
export const PRE_RECEIVE_HOOK = `#!/bin/sh
# Written by Assignment Desk for one task's exchange; see pre-receive-hook.ts.
branch_ref="refs/heads/$${HOOK_BRANCH_VARIABLE}"
start="$${HOOK_START_VARIABLE}"
status=0
refuse() {
  echo "desk: refused $1: $2" >&2
  status=1
}
if [ -z "$${HOOK_BRANCH_VARIABLE}" ] || [ -z "$start" ] || [ -z "$${HOOK_REPOSITORY_VARIABLE}" ]; then
  echo "desk: this exchange was not started by the desk; nothing is accepted" >&2
  exit 1
fi
while read -r old new ref; do
  if [ "$ref" != "$branch_ref" ]; then
    refuse "$ref" "only $branch_ref may be pushed"
    continue
  fi
  case "$new" in
    *[!0]*) ;;
    *) refuse "$ref" "the task branch cannot be deleted"; continue ;;
  esac
  if ! git merge-base --is-ancestor "$start" "$new" 2>/dev/null; then
    refuse "$ref" "$new does not descend from the task's start commit $start"
    continue
  fi
  case "$old" in
    *[!0]*)
      if ! git merge-base --is-ancestor "$old" "$new" 2>/dev/null; then
        refuse "$ref" "not a fast-forward of $old (the branch's history cannot be rewritten)"
        continue
      fi
      since="$old" ;;
    *) since="$start" ;;
  esac
  for commit in $(git rev-list "$new" "^$since"); do
    # Asked of the repository alone, outside the push's quarantine.
    if env -u GIT_OBJECT_DIRECTORY -u GIT_ALTERNATE_OBJECT_DIRECTORIES -u GIT_QUARANTINE_PATH \
      git --git-dir="$${HOOK_REPOSITORY_VARIABLE}" cat-file -e "$commit^{commit}" 2>/dev/null; then
      refuse "$ref" "$commit is history the task branch does not hold; push only the task's own new commits"
      break
    fi
  done
done
exit $status
`;
