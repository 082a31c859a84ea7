// One request of a slice as the page shows it: a refusal becomes the page's alert with the server's message; a success
// clears the alert and may say what was done in the status line.
import { messageOf } from '../api/api-error';

export interface PageNotices {
  dismissAlert(): void;
  showStatus(text: string): void;
  showAlert(text: string): void;
}

/** Runs `work`; what it answers (if anything) becomes the status line. Resolves whether it succeeded. */
export async function attempt(page: () => PageNotices, work: () => Promise<string | undefined>): Promise<boolean> {
  try {
    const done = await work();
    page().dismissAlert();
    if (done) page().showStatus(done);
    return true;
  } catch (error) {
    page().showAlert(messageOf(error));
    return false;
  }
}
