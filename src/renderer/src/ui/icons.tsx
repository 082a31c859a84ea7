// Small line icons for the top bar's toggles, drawn in the text's colour. Decorative: the button names the action.
import type { ReactNode } from 'react';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {children}
    </svg>
  );
}

export const BellIcon = ({ off = false }: { off?: boolean }) => (
  <Icon>
    <path d="M4 11V7a4 4 0 0 1 8 0v4l1 1.5H3L4 11Z" />
    <path d="M6.5 14a1.5 1.5 0 0 0 3 0" />
    {off && <path d="M2 2l12 12" />}
  </Icon>
);

export const SpeakerIcon = ({ off = false }: { off?: boolean }) => (
  <Icon>
    <path d="M2.5 6h2.5L8.5 3v10L5 10H2.5Z" />
    {off ? <path d="M11 6l3.5 4M14.5 6 11 10" /> : <path d="M11 5.5a3.5 3.5 0 0 1 0 5M12.8 3.5a6 6 0 0 1 0 9" />}
  </Icon>
);

export const PlusIcon = () => (
  <Icon>
    <path d="M8 3v10M3 8h10" />
  </Icon>
);
