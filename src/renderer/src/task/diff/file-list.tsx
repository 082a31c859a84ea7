// The files a task changed, with their status and +/− counts; picking one shows its diff.
import type { FileDiff } from '../../../../shared/review';

export function FileList({ files, selected, onSelect }: { files: FileDiff[]; selected: string | undefined; onSelect(path: string): void }) {
  return (
    <ul className="file-list" aria-label="Changed files">
      {files.map((file) => (
        <li key={file.path}>
          <button type="button" aria-current={file.path === selected ? 'true' : undefined} onClick={() => onSelect(file.path)} title={file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}>
            <span className={`file-status file-${file.status}`}>{file.status}</span>
            <span className="file-path">{file.path}</span>
            <span className="file-counts">
              <span className="plus">+{file.additions}</span> <span className="minus">−{file.deletions}</span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
