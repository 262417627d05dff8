export function Logo({ title, src }: { title: string; src: string | null }) {
  if (src) return <img src={src} alt="" height={32} className="logo__image" />;
  return (
    <span className="logo" aria-hidden="true">
      <svg viewBox="0 0 32 32" width="28" height="28" focusable="false" aria-hidden="true">
        <rect x="3" y="4" width="8" height="24" rx="1.5" fill="var(--color-brand)" />
        <rect x="13" y="7" width="7" height="21" rx="1.5" fill="var(--color-accent)" />
        <path d="M22 9.5 26.5 8 30 27l-4.5 1.2z" fill="var(--color-brand-dark)" />
      </svg>
      <span className="logo__text">{title}</span>
    </span>
  );
}
