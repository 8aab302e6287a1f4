import { Anchor } from '@mantine/core';
import { IconMapPin, IconPhone } from '@tabler/icons-react';
import { addressLine, mapHref, telHref, type PostalAddress } from '../lib/links';

const linkStyle = { display: 'inline-flex', gap: 6, alignItems: 'center' } as const;

/** Where a job is (opens the map) and the client's phone (dials it): what the crew taps on the way. */
export function ContactLinks({ address, phone }: { address: PostalAddress; phone: string }) {
  return (
    <>
      <Anchor href={mapHref(address)} target="_blank" rel="noreferrer" size="sm" style={linkStyle}>
        <IconMapPin size={16} aria-hidden /> {addressLine(address)}
      </Anchor>
      {phone ? (
        <Anchor href={telHref(phone)} size="sm" style={linkStyle}>
          <IconPhone size={16} aria-hidden /> {phone}
        </Anchor>
      ) : null}
    </>
  );
}
