// "Runs on your machine: .husky/pre-commit, CLAUDE.md" on a card in review whose commit changes files that can run
// code or steer agents on this machine (the summary's `attention`); each file's reason is in its title.
import type { AttentionFile } from '../../../shared/task';

/** Paths named on the card; more are counted. */
const SHOWN = 3;

export function AttentionNote({ files }: { files: readonly AttentionFile[] }) {
  const more = files.length - SHOWN;
  return (
    <div className="card-attention" role="note" aria-label="Files that run on your machine">
      <span className="card-attention-label">Runs on your machine</span>
      <ul className="card-attention-files">
        {files.slice(0, SHOWN).map((file) => <li key={file.path} title={file.reason}><code>{file.path}</code></li>)}
        {more > 0 && <li className="card-attention-more">+{more} more</li>}
      </ul>
    </div>
  );
}
