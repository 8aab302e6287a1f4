import { Select, type SelectProps } from '@mantine/core';
import type { ClientDetail } from '#shared/schemas/clients';

type Place = ClientDetail['addresses'][number];

/** A service address's name: its label, or its place in the list ("Address 2"). */
export const placeName = (place: Place, index: number) => place.label || `Address ${index + 1}`;

/**
 * One of a client's service addresses (decision 037). The field shows the name and street, which fit
 * a phone's width; the list shows the city too, to tell two alike apart.
 */
export function ServiceAddressSelect({
  places,
  ...props
}: { places: Place[] } & Omit<SelectProps, 'data' | 'renderOption'>) {
  const full = new Map(places.map((a, i) => [a._id, `${placeName(a, i)}: ${a.street}, ${a.city}`]));
  return (
    <Select
      label="Service address"
      allowDeselect={false}
      {...props}
      data={places.map((a, i) => ({ value: a._id, label: `${placeName(a, i)}: ${a.street}` }))}
      renderOption={({ option }) => full.get(option.value) ?? option.label}
    />
  );
}
