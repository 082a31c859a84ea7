// Electron's security checklist applied to every web page the app creates: no navigation or new window
// outside the app's origin, web links to the browser only after a click, no permissions, no <webview>,
// and a strict Content-Security-Policy header on the app's pages. The decisions live in ../shell.
import { app, session, shell, type Session, type WebContents } from 'electron';
import { boardContentSecurityPolicy, withContentSecurityPolicy } from '../shell/content-security-policy';
import { isSameOrigin } from '../shell/app-origin';
import { createUserActivation, leavingDecision, navigationDecision } from '../shell/navigation-policy';
import { permissionDecision } from '../shell/permission-policy';

/** The app's origin once the core listens; nothing is allowed before that. */
export type OriginSource = () => string | undefined;

/** Call before the first window opens. */
export function installWebSecurity(appOrigin: OriginSource, log: (message: string) => void): void {
  app.on('web-contents-created', (_event, contents) => guardContents(contents, appOrigin, log));
  guardSession(session.defaultSession, appOrigin);
}

function guardContents(contents: WebContents, appOrigin: OriginSource, log: (message: string) => void): void {
  const activation = createUserActivation();
  // Input from the OS, which a page cannot fake: the evidence that a person clicked a link.
  contents.on('input-event', (_event, input) => activation.noteInput(input.type));

  const leave = (url: string) => {
    const origin = appOrigin();
    if (origin !== undefined && leavingDecision(url, origin, activation.consume()).openExternally) {
      void shell.openExternal(url).catch((error: unknown) => log(`Could not open ${url}: ${String(error)}`));
    }
  };
  const guardNavigation = (event: { preventDefault(): void; url: string }) => {
    const origin = appOrigin();
    if (origin !== undefined && navigationDecision(event.url, origin) === 'allow') return;
    event.preventDefault();
    leave(event.url);
  };
  contents.on('will-navigate', guardNavigation);
  contents.on('will-frame-navigate', guardNavigation);
  contents.on('will-redirect', guardNavigation);
  contents.setWindowOpenHandler(({ url }) => {
    leave(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

function guardSession(target: Session, appOrigin: OriginSource): void {
  const allowed = (permission: string, url: string | undefined) => {
    const origin = appOrigin();
    return origin !== undefined && permissionDecision(permission, url, origin);
  };
  target.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(allowed(permission, details.requestingUrl ?? contents.getURL()));
  });
  target.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowed(permission, requestingOrigin));
  target.setDevicePermissionHandler(() => false);
  // No URL filter: the origin check below is exact, where a match pattern's port handling is not.
  target.webRequest.onHeadersReceived((details, callback) => {
    const origin = appOrigin();
    if (origin === undefined || !isSameOrigin(details.url, origin)) {
      callback({});
      return;
    }
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders, boardContentSecurityPolicy(origin)) });
  });
}
