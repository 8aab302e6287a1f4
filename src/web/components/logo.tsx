import { useSiteConfig } from '../lib/site-config';

/** The company mark: a house outline with a wrench, in the brand colours. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden focusable="false">
      <rect width="64" height="64" rx="14" fill="#ec691d" />
      <path d="M12 31 32 14l20 17v19a2 2 0 0 1-2 2H14a2 2 0 0 1-2-2z" fill="#fff" />
      <path
        d="M38.5 30.5a7 7 0 0 0-9.3 8.6l-8 8 3.2 3.2 8-8a7 7 0 0 0 8.6-9.3l-4.2 4.2-3.4-.9-.9-3.4z"
        fill="#0b3372"
      />
    </svg>
  );
}

/** The business's own logo when the owner uploaded one (on a white tile, whatever its colours), else the mark. */
export function BrandMark({ size = 32 }: { size?: number }) {
  const { logoUrl } = useSiteConfig();
  if (!logoUrl) return <Logo size={size} />;
  return (
    <img
      src={logoUrl}
      alt=""
      height={size}
      style={{ height: size, width: 'auto', maxWidth: size * 4, background: '#fff', borderRadius: 6, padding: 2 }}
    />
  );
}
